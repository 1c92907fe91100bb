# Included by _fan.pyx.  Tile strings and meld strings read in C, for the per-call front
# (_fan_front.pxi).  Only the plain ASCII notation is read here -- digit runs with a suit letter
# m p s z f, honor letters E S W N C F P, blanks -- and only when it is valid: anything else
# (Chinese names, glyphs, a bad character, a dangling digit, a 0 ...) answers SCAN_OTHER, and the
# caller hands the whole call to the Python parser of mahjong_core.tiles, the one that decides
# every error and its message.  tests/hand/test_front_parity.py holds the two readings equal.

cdef enum:
    SCAN_OTHER = -1     # not a plain valid string: the Python parser reads it
    SCAN_CAP = 20       # most tiles read from one string (a hand holds at most 14 concealed tiles)

cdef signed char _LETTER_KIND[128]     # honor letter -> kind 27-33, else -1
cdef signed char _SUIT_BASE[128]       # suit letter -> first kind (m 0, p 9, s 18, z/f special), else -1
cdef bint _BLANK[128]                  # characters the Python parser skips as blanks (ASCII ones)
cdef uint8_t _Z_KIND[8]                # tenhou honor digit 1-7 -> kind (1z E ... 5z 白 6z 发 7z 中)

cdef enum:
    SUIT_Z = 100
    SUIT_F = 101


cdef _init_tile_text():
    cdef int i
    for i in range(128):
        _LETTER_KIND[i] = -1
        _SUIT_BASE[i] = -1
        _BLANK[i] = False
    for i, ch in enumerate("ESWNCFP"):
        _LETTER_KIND[ord(ch)] = 27 + i
    _SUIT_BASE[ord("m")] = 0
    _SUIT_BASE[ord("p")] = 9
    _SUIT_BASE[ord("s")] = 18
    _SUIT_BASE[ord("z")] = SUIT_Z
    _SUIT_BASE[ord("f")] = SUIT_F
    for ch in " \t\n\r\v\f":
        _BLANK[ord(ch)] = True
    for i, kind in enumerate((27, 28, 29, 30, 33, 32, 31)):
        _Z_KIND[i + 1] = kind


_init_tile_text()


cdef int _scan_tiles(str text, Py_ssize_t start, int* out, int cap, bint flowers) noexcept:
    """The tile indices of text[start:] into out[] in the order written (at most `cap`, flowers
    only if `flowers`); their number, or SCAN_OTHER."""
    cdef Py_ssize_t i, n = len(text)
    cdef Py_UCS4 ch
    cdef int k = 0, n_pend = 0, j, d, base
    cdef uint8_t pend[SCAN_CAP]
    for i in range(start, n):
        ch = text[i]
        if ch >= 128:
            return SCAN_OTHER
        if u'0' <= ch <= u'9':
            if n_pend == SCAN_CAP:
                return SCAN_OTHER
            pend[n_pend] = <uint8_t> (<int> ch - 48)
            n_pend += 1
        elif _BLANK[ch]:
            continue      # blanks may stand anywhere, even between digits and their suit letter
        elif _SUIT_BASE[ch] >= 0:
            base = _SUIT_BASE[ch]
            if n_pend == 0 or k + n_pend > cap:
                return SCAN_OTHER
            for j in range(n_pend):
                d = pend[j]
                if base == SUIT_Z:
                    if not 1 <= d <= 7:
                        return SCAN_OTHER
                    out[k] = _Z_KIND[d]
                elif base == SUIT_F:
                    if not flowers or not 1 <= d <= 8:
                        return SCAN_OTHER
                    out[k] = 33 + d
                else:
                    if d == 0:
                        return SCAN_OTHER
                    out[k] = base + d - 1
                k += 1
            n_pend = 0
        elif _LETTER_KIND[ch] >= 0:
            if n_pend or k == cap:
                return SCAN_OTHER
            out[k] = _LETTER_KIND[ch]
            k += 1
        else:
            return SCAN_OTHER
    return SCAN_OTHER if n_pend else k


cdef int _text_counts(str text, uint8_t* counts) noexcept:
    """The 34 counts of a plain hand string (at most 4 copies of a kind, no flower): 0, or
    SCAN_OTHER."""
    cdef int tiles[SCAN_CAP]
    cdef int n = _scan_tiles(text, 0, tiles, SCAN_CAP, False), j
    if n < 0:
        return SCAN_OTHER
    memset(counts, 0, N_KINDS)
    for j in range(n):
        counts[tiles[j]] += 1
        if counts[tiles[j]] > 4:
            return SCAN_OTHER
    return 0


cdef int _meld_kind(str word, Py_ssize_t start, Py_ssize_t end) noexcept:
    """MELD_* code of text[start:end] read case-insensitively as chi / pon / kong / ckong, or -1."""
    cdef char low[6]
    cdef Py_ssize_t i
    cdef Py_UCS4 ch
    if not 3 <= end - start <= 5:
        return -1
    for i in range(start, end):
        ch = word[i]
        if u'A' <= ch <= u'Z':
            ch = <Py_UCS4> (<int> ch + 32)
        if not u'a' <= ch <= u'z':
            return -1
        low[i - start] = <char> (<int> ch)
    low[end - start] = 0
    if strcmp(low, b"chi") == 0:
        return M_CHI
    if strcmp(low, b"pon") == 0:
        return M_PON
    if strcmp(low, b"kong") == 0:
        return M_KONG
    if strcmp(low, b"ckong") == 0:
        return M_CKONG
    return -1


cdef int _group_first(int kind, int* tiles, int n) noexcept:
    """The first tile of a group of `kind` made of tiles[0:n] (sorted here), or -1 when they do not
    form one."""
    cdef int a, b, c
    if kind == M_CHI:
        if n != 3:
            return -1
        a, b, c = tiles[0], tiles[1], tiles[2]
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return a if a < 27 and a % 9 <= 6 and b == a + 1 and c == a + 2 else -1
    if n != (3 if kind == M_PON else 4):
        return -1
    for a in range(1, n):
        if tiles[a] != tiles[0]:
            return -1
    return tiles[0]


cdef int _text_meld(str text, uint8_t* row) noexcept:
    """A plain meld string ("pon CCC", "chi 123m", "kong EEEE", "ckong 9999m") as its row
    [kind, first tile]: 0, or SCAN_OTHER.  The kind is the word before the first blank, after the
    string's leading blanks, as the Python parser splits it."""
    cdef Py_ssize_t i = 0, n = len(text), word
    cdef Py_UCS4 ch
    cdef int kind, first, count
    cdef int tiles[SCAN_CAP]
    while i < n:
        ch = text[i]
        if ch >= 128 or not _BLANK[ch]:
            break
        i += 1
    word = i
    while i < n and text[i] != u' ':
        i += 1
    if i == n:
        return SCAN_OTHER
    kind = _meld_kind(text, word, i)
    if kind < 0:
        return SCAN_OTHER
    count = _scan_tiles(text, i + 1, tiles, 4, False)
    if count < 0:
        return SCAN_OTHER
    first = _group_first(kind, tiles, count)
    if first < 0:
        return SCAN_OTHER
    row[0] = <uint8_t> kind
    row[1] = <uint8_t> first
    return 0
