"""Helpers for the Transformer course."""
