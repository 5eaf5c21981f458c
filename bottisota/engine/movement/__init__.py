"""engine/movement"""
