"""engine/shooting"""
