"""The constants of the long-card (长牌) family that the compiled engine and the Python package share:
the one source.  ``tools/gen_constants.py`` writes them as ``src/mahjong_core/_longcard_constants.pxd``
(C enums, ``cimport``ed by ``_lc_round.pyx``) and as ``python/mahjong_core/families/longcard/_constants.py``
for Python; ``tests/generated/test_constants_generated.py`` checks both are fresh and that the family's
Python modules (cards, actions, rules, match) hold the same values.

Pure data, no imports; the layout is that of ``tools/constants/mahjong.py`` (``SCALARS``: single
integers; ``ENUMS``: groups of codes with their C and Python prefixes and their names).
"""

N_FACES = 21
CAISHEN = N_FACES          # the 财神 card's id: after the 21 faces
_CHI_BASE = N_FACES        # 吃 actions follow the 21 discards
_N_CHI = N_FACES * (N_FACES + 1) // 2      # one 吃 action per unordered pair of held faces (231)
_PENG = _CHI_BASE + _N_CHI

SCALARS = (
    ("N_FACES", N_FACES, "faces of the 21-card set (spec changpai.md 1.1)"),
    ("CAISHEN", CAISHEN, "id of the 财神 card, after the faces"),
    ("COPIES", 5, "copies of each face"),
    ("PLAYERS", 3, "seats of a hand"),
    ("DEAL", 20, "cards dealt to each seat"),
    ("MAX_STOCK", N_FACES * 5 + 10, "105 cards + at most 10 财神 (caishen_count)"),
    ("N_ACTIONS", _PENG + 7, "action ids: discards, 吃 pairs, then the single actions (ACTION_SIZE)"),
    ("CHI_BASE", _CHI_BASE, "first 吃 action id"),
    ("EV_FIELDS", 6, "ints of an event record: type, seat, to (-1 = everyone), a, b, c"),
    ("NO_TO", -1, "an event record's `to` when everyone sees it"),
)

ENUMS = (
    dict(c="", py="", doc="the single actions, after the discards and the 吃 pairs",
         members=(("PENG", _PENG), ("SHA", _PENG + 1), ("XIANG", _PENG + 2), ("HU", _PENG + 3),
                  ("PASS", _PENG + 4), ("QI", _PENG + 5), ("FOLD", _PENG + 6))),
    dict(c="PH_", py="PH_", doc="phase of a hand (the state machine's state)",
         members=("DEAL", "QI", "STAY", "DISCARD", "TURN", "CLAIM", "EXECUTE", "END"),
         names=("PHASE_NAMES", ("deal", "qi", "stay", "discard", "turn", "claim", "execute", "end"))),
    dict(c="OK_", py="OFFER_", doc="what the card on offer is: none, a turn's card, a discard",
         members=("NONE", "TURN", "DISCARD"),
         names=("OFFER_KINDS", ("", "turn", "discard"))),
    dict(c="EV_", py="EV_", doc="event record types",
         members=("DEAL", "JIANG", "CAISHEN", "DRAW", "ACTION", "DECLARE", "TURN", "DISCARD", "TANGZI", "CLAIM",
                  "REPLACEMENT", "ANNOUNCE", "END"),
         names=("EVENT_NAMES", ("deal", "jiang", "caishen", "draw", "action", "declare", "turn", "discard",
                                "tangzi", "claim", "replacement", "announce", "end"))),
    dict(c="DRAW_", py=None, doc="why a card is drawn, in draw events",
         members=("CAISHEN", "EXTRA"),
         names=("DRAW_WHY", ("caishen", "extra"))),
    dict(c="AN_", py="AN_", doc="announcements (spec 3.12)",
         members=("SIGEN", "WUGEN", "SIGEN_UP", "WUGEN_UP", "XIANGUO", "ERGEN", "SANGEN", "WEIPENG"),
         names=("ANNOUNCE_NAMES", ("四根", "五根", "四根上手", "五根上手", "现过", "二根", "三根", "未碰成坎"))),
    dict(c="BONUS_", py=None, doc="the mao_bonus option (CP-15)",
         members=("LIVE", "ANY", "S1", "OFF"),
         names=("BONUS_MODES", ("live", "any", "s1", "off"))),
    dict(c="BAN_", py=None, doc="the chi_same_face_discard_ban option (CP-22)",
         members=("NONE", "SEVEN", "ALL"),
         names=("BAN_RULES", ("none", "seven_only", "all"))),
    dict(c="DANG_", py=None, doc="the dang_rule option",
         members=("PER_FACE", "TAKEN_ONLY", "ANY_FACE"),
         names=("DANG_RULES", ("taken_or_dead_per_face", "taken_only", "any_face_releases_all"))),
)
