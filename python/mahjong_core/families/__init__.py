"""Game families: one package per family (mahjong, longcard); the registry is families/registry.py."""
