"""robot"""
