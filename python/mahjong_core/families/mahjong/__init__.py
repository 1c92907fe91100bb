"""The mahjong family: tiles, rulesets and fan tables, hand and fan evaluation, flow settings, the wall, and the pure-Python reference (``_ref``)."""
