"""The web table in a real browser: headless Chromium from the system packages driven by Selenium
through the distribution's chromedriver, at a laptop's window (1280×800) and a phone's screen
(390×844, emulated: a headless window is at least 500 px wide).  It joins rooms and plays by
clicking tiles and buttons; it reloads the page (the seat resumes by itself, without a penalty),
closes the tab past the grace period (an escape), restarts the server from an older copy of its
database (the page drops the history the server lost), checks that each round's result stays
until it is dismissed or its timer ends, that the own hand is inside the window at both sizes
with four players, that no other seat's concealed tile is drawn, and that Chinese text is drawn
with real glyphs (not the missing-glyph box).  Screenshots are saved (``MAHJONG_SCREENSHOT_DIR``
to keep them; else pytest's temporary directory).

Under CI (``CI=true``) a missing browser fails the test (``.ci/run`` installs chromium,
chromium-driver and a CJK font); elsewhere it is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import LiveServer, stored

LAPTOP = (1280, 800)
PHONE = (390, 844)


def _need(what: str, path: str | None) -> str:
    if path is None:
        reason = f"{what} is not installed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    return path


def _driver(size: tuple[int, int]):  # type: ignore[no-untyped-def]
    chromium = _need("chromium", shutil.which("chromium") or shutil.which("chromium-browser"))
    driver = _need("chromedriver", shutil.which("chromedriver"))
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    width, height = size
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={max(width, 500)},{height}", "--hide-scrollbars"):
        opts.add_argument(arg)
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    if width < 500:   # a phone's screen: the page sees exactly this viewport
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return browser


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("MAHJONG_SCREENSHOT_DIR", tmp_path / "screenshots"))
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture
def browser_at() -> Iterator[Callable[[tuple[int, int]], Any]]:
    opened: list[Any] = []

    def browser_at(size: tuple[int, int]) -> Any:
        opened.append(_driver(size))
        return opened[-1]

    yield browser_at
    for b in opened:
        b.quit()


def _settings(tmp_path: Path, **kw: Any) -> ServerSettings:
    base: dict[str, Any] = {"db": str(tmp_path / "browser.sqlite3"), "bots": True, "rounds": 1, "seed": 3,
                            "tick_s": 0.05, "act_timeout_s": 120.0}
    base.update(kw)
    return ServerSettings(**base)


def _by() -> Any:
    from selenium.webdriver.common.by import By
    return By


def _join(browser: Any, srv: LiveServer, name: str, room: str) -> None:
    from selenium.webdriver.support.ui import Select, WebDriverWait

    By = _by()
    browser.get(srv.base + "/")
    browser.find_element(By.ID, "name").send_keys(name)
    WebDriverWait(browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, f"#room option[value={room}]"))
    Select(browser.find_element(By.ID, "room")).select_by_value(room)
    browser.find_element(By.ID, "join").click()
    _wait(lambda: _js(browser, "return state !== null && state.view !== null"), "the table did not start")


def _js(browser: Any, script: str, *args: Any) -> Any:
    return browser.execute_script(script, *args)


def _wait(pred: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    end = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        assert time.monotonic() < end, what
        time.sleep(0.05)


def _click_something(browser: Any) -> bool:
    """One click of a simple player: win when offered, pass on claims, else discard a tile."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )

    By = _by()
    try:
        for css in ("#actions button[data-kind=win]", "#actions button[data-kind=pass]",
                    "#hand .tile.playable", "#actions button.act"):
            found = [b for b in browser.find_elements(By.CSS_SELECTOR, css) if b.is_enabled()]
            if found:
                found[-1].click()
                return True
    except StaleElementReferenceException:
        return False    # redrawn while looked at: look again
    except ElementClickInterceptedException as exc:   # something covers the hand or the actions
        raise AssertionError(f"the hand or the actions are covered: {exc.msg}") from None
    return False


def _play(browser: Any, until: Callable[[], Any], what: str, timeout: float = 90.0,
          every: Callable[[], None] | None = None) -> int:
    """Click until ``until()``; ``every()`` after each step.  The number of clicks."""
    clicks = 0
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, what
        clicks += _click_something(browser)
        if every is not None:
            every()
        time.sleep(0.03)
    return clicks


def _held(browser: Any) -> int:
    return int(_js(browser, "return events.length"))


def _over(browser: Any) -> bool:
    return bool(_js(browser, "return state !== null && state.status === 'over'"))


def _result_shown(browser: Any) -> str | None:
    return _js(browser, "const r = document.getElementById('result'); return r.hidden ? null : r.innerText")


def _check_layout(browser: Any, where: str) -> None:
    """The own hand wholly inside the window without scrolling, nothing wider than the window, the
    result box (when shown) above the hand, and no other seat's concealed tile drawn face up."""
    got = _js(browser, """
        const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const result = document.getElementById('result');
        return {tiles: [...document.querySelectorAll('#hand .tile')].map(rect),
                hand: rect(document.getElementById('hand')),
                result: result.hidden ? null : rect(result),
                vw: innerWidth, vh: innerHeight, scrollWidth: document.documentElement.scrollWidth,
                scrollY: scrollY,
                faceUp: document.querySelectorAll('.seat:not(.mine) .concealed .tile:not(.back), ' +
                                                  '.seat:not(.mine) .concealed [data-tile]').length,
                backs: document.querySelectorAll('.seat:not(.mine) .concealed .tile.back').length};""")
    vw, vh = got["vw"], got["vh"]
    assert got["tiles"], f"{where}: no hand drawn"
    assert got["scrollY"] == 0, f"{where}: the page was scrolled"
    for left, top, right, bottom in got["tiles"]:
        assert 0 <= left and right <= vw and 0 <= top and bottom <= vh, f"{where}: a tile of the hand is off screen: {got}"
    assert got["scrollWidth"] <= vw, f"{where}: wider than the window"
    if got["result"] is not None:
        assert got["result"][3] <= got["hand"][1], f"{where}: the result box covers the hand"
    assert got["faceUp"] == 0 and got["backs"] > 0, f"{where}: {got}"


# Whether the glyphs of an element's text are drawn from a font that has them: each character is
# drawn on a canvas in the element's own font and compared with what the browser draws for code
# points no font has (U+0378 and U+0379 are unassigned: both are the missing-glyph box).
_GLYPHS = """
const el = arguments[0];
const font = getComputedStyle(el).fontStyle + " " + getComputedStyle(el).fontWeight + " 40px " + getComputedStyle(el).fontFamily;
const draw = (ch) => {
  const c = document.createElement("canvas"); c.width = 64; c.height = 64;
  const g = c.getContext("2d"); g.font = font; g.fillStyle = "#000"; g.fillText(ch, 4, 48);
  return { pixels: Array.from(g.getImageData(0, 0, 64, 64).data).join(","), width: g.measureText(ch).width };
};
const missing = draw("\\u0378"), missing2 = draw("\\u0379");
const chars = [...el.textContent.trim()].filter((ch) => ch.trim());
return { text: el.textContent, width: el.getBoundingClientRect().width, missingAlike: missing.pixels === missing2.pixels,
         missingWidth: missing.width,
         chars: chars.map((ch) => { const d = draw(ch); return [ch, d.pixels !== missing.pixels, d.width]; }),
         distinct: new Set(chars.map((ch) => draw(ch).pixels)).size === new Set(chars).size };
"""


def _check_cjk(browser: Any, css: str) -> str:
    """The Chinese text of the element at ``css`` is drawn with real glyphs; its text."""
    el = browser.find_element(_by().CSS_SELECTOR, css)
    got = _js(browser, _GLYPHS, el)
    assert got["missingAlike"], "the check cannot tell a missing glyph: two unassigned code points differ"
    assert got["width"] > 0 and got["chars"], got["text"]
    for ch, drawn, width in got["chars"]:
        assert drawn and width > 0, f"{ch!r} of {got['text']!r} is drawn as the missing-glyph box (install fonts-noto-cjk)"
    assert got["distinct"], f"different characters of {got['text']!r} look alike"
    return str(got["text"])


def _check_names_and_winds(browser: Any, players: int) -> None:
    """Seats named by player and position, one dealer, the winds where the rules have them, the wall."""
    got = _js(browser, """
        return {seats: [...document.querySelectorAll('.seat')].map((s) => s.querySelector('.who').innerText),
                dealers: document.querySelectorAll('.badge.dealer').length,
                winds: [...document.querySelectorAll('.seat .wind')].map((w) => w.textContent),
                roundWind: document.getElementById('round-wind').hidden ? null : document.getElementById('round-wind').innerText,
                wall: document.getElementById('wall').innerText, view: state.view, players: state.players};""")
    assert len(got["seats"]) == players
    positions = {2: ["across"], 4: ["right", "across", "left"]}[players]
    for k, p in enumerate(got["players"]):
        text = next(t for t in got["seats"] if p["name"] in t)
        if k == got["view"]["seat"]:
            assert "you" in text
        else:
            assert any(pos in text for pos in positions), text
    assert got["dealers"] == 1
    assert f"{got['view']['wall_remaining']} tiles left" == got["wall"]
    if got["view"]["seat_winds"] is not None:
        assert sorted(got["winds"]) == sorted("东南西北") and "East round" in got["roundWind"]
    else:
        assert got["winds"] == [] and got["roundWind"] is None


# ---------------------------------------------------------------------------- the tests
def test_four_players_on_a_phone_by_clicking(tmp_path, shots, browser_at):
    """A whole match of the public room on a phone's screen: the hand always inside it."""
    s = _settings(tmp_path, seed=6)
    browser = browser_at(PHONE)
    with LiveServer(s) as srv:
        _join(browser, srv, "phone", "public")
        _check_names_and_winds(browser, 4)
        _check_cjk(browser, "#hand .tile .main")
        browser.save_screenshot(str(shots / "phone_public_start.png"))
        checks = [0]

        def look() -> None:
            checks[0] += 1
            if checks[0] % 5 == 0 and not _over(browser):
                _check_layout(browser, "phone, during the hand")

        clicks = _play(browser, lambda: _result_shown(browser), "the round did not end", every=look)
        browser.save_screenshot(str(shots / "phone_public_result.png"))
        _check_layout(browser, "phone, the result shown")
        text = _result_shown(browser)
        assert "Round 1 of 1" in text and "this hand" in text
        if "win" in text:
            _check_cjk(browser, "#result .fans td.zh")
    assert clicks >= 5, "the round was played by clicking"
    db = stored(s.db)
    assert len(db["hands"]) == 1 and sum(db["balances"].values()) == 4 * s.opening_balance


def test_a_reload_resumes_the_seat_without_penalty(tmp_path, shots, browser_at):
    """In the bamboo room (where closing the client is an escape) a reload resumes the table by
    itself, from the token the tab kept, and nobody is charged."""
    s = _settings(tmp_path, seed=3)
    browser = browser_at(PHONE)
    By = _by()
    with LiveServer(s) as srv:
        _join(browser, srv, "reloader", "bamboo")
        table = next(iter(srv.lobby.tables.values()))   # type: ignore[union-attr]
        _play(browser, lambda: _held(browser) > 20, "no progress")
        browser.refresh()
        # no lobby form, no click: the table again, with the whole stream
        _wait(lambda: _js(browser, "return state !== null && state.view !== null"), "the reload did not resume")
        assert not browser.find_element(By.ID, "lobby").is_displayed()
        assert browser.find_element(By.ID, "table").is_displayed()
        k = int(_js(browser, "return session.seat"))
        _wait(lambda: _held(browser) == len(table.seats[k].stream), "the stream was not loaded again")
        assert table.status == "playing" and table.tracker.disconnects[k] == 1
        notice = browser.find_element(By.ID, "notice").text
        assert "1 of 3" in notice, notice
        _check_layout(browser, "after the reload")
        browser.save_screenshot(str(shots / "phone_bamboo_reloaded.png"))
        _play(browser, lambda: _result_shown(browser), "the round did not end after the reload")
        browser.save_screenshot(str(shots / "phone_bamboo_result.png"))
    db = stored(s.db)
    assert not [t for t in db["transfers"] if t[5] == "escape_penalty"]
    assert len(db["hands"]) == 1 and "escaped" not in db["hands"][0][2]
    assert sum(db["balances"].values()) == 2 * s.opening_balance


def test_a_tab_closed_past_the_grace_period_is_an_escape(tmp_path, browser_at):
    """Closing the tab and not coming back within the grace period is a closed client: the escape
    penalty; the page opened later says the table is over instead of a broken table."""
    s = _settings(tmp_path, seed=3, reconnect_grace_s=0.5)
    browser = browser_at(LAPTOP)
    By = _by()
    with LiveServer(s) as srv:
        _join(browser, srv, "leaver", "bamboo")
        table = next(iter(srv.lobby.tables.values()))   # type: ignore[union-attr]
        _play(browser, lambda: _held(browser) > 15, "no progress")
        first = browser.current_window_handle
        browser.switch_to.new_window("tab")
        second = browser.current_window_handle
        browser.switch_to.window(first)
        closed = time.monotonic()
        browser.close()                  # a close frame 1001: the player closed the game
        browser.switch_to.window(second)
        _wait(lambda: table.status == "over", "no escape", timeout=10)
        assert time.monotonic() - closed >= 0.5
        assert table.end_reason is not None and "closed_client" in table.end_reason
        time.sleep(0.3)                  # the finished table is let go: nobody is coming back
        browser.get(srv.base + "/")      # a new tab: the seat kept in this browser is offered
        browser.find_element(By.ID, "resume").click()
        _wait(lambda: browser.find_element(By.ID, "lobby").is_displayed(), "the lobby did not come back")
        assert "no longer open" in browser.find_element(By.ID, "lobby-note").text
        assert _js(browser, "return sessionStorage.getItem('mahjong-seat') === null && localStorage.getItem('mahjong-seat') === null")
    db = stored(s.db)
    assert [t[2] for t in db["transfers"] if t[5] == "escape_penalty"] == ["leaver"]


def test_each_rounds_result_stays_until_continue_or_its_timer(tmp_path, shots, browser_at):
    """Four players at a laptop's window: each round's result (the winning hand, fans in Chinese
    and English, payments) stays over the next round until Continue or its timer; the last stays."""
    s = _settings(tmp_path, rounds=3, seed=6)
    browser = browser_at(LAPTOP)
    By = _by()
    seconds = 3.0
    with LiveServer(s) as srv:
        _join(browser, srv, "laptop", "public")
        _js(browser, "mjConfig.resultSeconds = arguments[0]", seconds)
        _check_names_and_winds(browser, 4)
        _check_layout(browser, "laptop, the deal")
        browser.save_screenshot(str(shots / "laptop_public_start.png"))
        checks = [0]

        def look() -> None:
            checks[0] += 1
            if checks[0] % 5 == 0 and not _over(browser):
                _check_layout(browser, "laptop, during the hand")

        for rnd in (1, 2, 3):
            _play(browser, lambda: _result_shown(browser), f"round {rnd} did not end", every=look)
            shown_at = time.monotonic()
            text = _result_shown(browser)
            assert f"Round {rnd} of 3" in text and "this hand" in text
            if "win" in text:    # the winning hand laid down, the fans in Chinese and English
                assert len(browser.find_elements(By.CSS_SELECTOR, "#result .revealed .tile:not(.xs)")) >= 14
                assert _check_cjk(browser, "#result .fans td.zh")
                assert browser.find_elements(By.CSS_SELECTOR, "#result .fans td")[1].text
            _check_layout(browser, f"laptop, round {rnd}'s result")
            browser.save_screenshot(str(shots / f"laptop_public_result_{rnd}.png"))
            if rnd < 3:   # the next round has started under the box, which stays
                assert browser.find_element(By.ID, "round").text == f"Round {rnd + 1} of 3"
            time.sleep(1.0)
            assert f"Round {rnd} of 3" in (_result_shown(browser) or ""), "the result went away by itself"
            if rnd == 1:
                browser.find_element(By.ID, "result-continue").click()
                assert _result_shown(browser) is None
            elif rnd == 2:                  # nobody clicks: the timer closes it
                _wait(lambda: _result_shown(browser) is None, "the timer did not close the result", timeout=seconds + 2)
                assert time.monotonic() - shown_at >= seconds - 0.3
            else:                           # the match is over: it stays until Continue
                time.sleep(seconds)
                assert "Round 3 of 3" in (_result_shown(browser) or "")
                assert browser.find_element(By.ID, "result-continue").text == "Continue"
                browser.find_element(By.ID, "result-continue").click()
        assert _over(browser) and "Match over" in browser.find_element(By.ID, "phase").text
        # at the end the winner's hand lies face up at his seat; the others' stay hidden
        got = _js(browser, """
            const last = events.filter((e) => e.type === 'settlement').pop();
            return {revealed: last.revealed, me: session.seat,
                    seats: [...document.querySelectorAll('.seat')].map((s) => [Number(s.id.slice(5)),
                        [...s.querySelectorAll('.revealed-hand .tile')].map((t) => Number(t.dataset.tile)),
                        s.querySelectorAll('.concealed .tile.back').length])};""")
        winners = {r["seat"]: sorted([*r["concealed"], r["win_tile"]]) for r in got["revealed"]}
        for k, face_up, backs in got["seats"]:
            if k in winners and k != got["me"]:
                assert sorted(face_up) == winners[k] and backs == 0
            elif k != got["me"]:
                assert face_up == [] and backs > 0
        browser.save_screenshot(str(shots / "laptop_public_over.png"))
    db = stored(s.db)
    assert len(db["hands"]) == 3 and sum(db["balances"].values()) == 4 * s.opening_balance


def test_a_history_the_server_lost_is_dropped_and_loaded_again(tmp_path, shots, browser_at):
    """The server restarts from an older copy of its database (its last commits lost, as with a
    lost WAL): the welcome's last_id is below what the page holds, so the page drops its history
    and loads the stream again instead of going on from ids the server reuses."""
    s = _settings(tmp_path, rounds=2, seed=3)
    older = tmp_path / "older.sqlite3"
    browser = browser_at(LAPTOP)
    with LiveServer(s) as srv:
        port = srv.port
        _join(browser, srv, "resync", "coins")
        _play(browser, lambda: _held(browser) > 20, "no progress")
        with sqlite3.connect(s.db) as src, sqlite3.connect(older) as dst:
            src.backup(dst)              # what the disk will hold: the commits up to here
        kept = _held(browser)
        _play(browser, lambda: _held(browser) > kept + 12, "no progress after the copy")
        held = _held(browser)
    for suffix in ("", "-wal", "-shm"):
        Path(s.db + suffix).unlink(missing_ok=True)
    shutil.copy(older, s.db)
    table, seat = next((t, k) for (t, k), stream in stored(s.db)["streams"].items() if stream[0]["players"][k] == "resync")
    assert len(stored(s.db)["streams"][(table, seat)]) < held
    with LiveServer(s, port=port) as srv:
        # the page reconnects by itself (it retries), sees last_id < what it holds, and resyncs
        live = srv.lobby.tables[table]   # type: ignore[union-attr]
        _wait(lambda: _js(browser, "return state !== null && ws !== null && ws.readyState === 1") and
              json.loads(_js(browser, "return JSON.stringify(events)")) == [json.loads(e) for e in live.seats[seat].stream],
              "the page did not resync", timeout=20)
        assert "loaded again" in browser.find_element(_by().ID, "notice").text
        _check_layout(browser, "after the resync")
        _play(browser, lambda: _over(browser), "the match did not end after the resync")
        page = json.loads(_js(browser, "return JSON.stringify(events)"))
    assert page == stored(s.db)["streams"][(table, seat)]


# ---------------------------------------------------------------------------- the long-card table
def _click_long_card(browser: Any, penalised: bool = False) -> bool:
    """One click of a simple long-card player: 胡 when offered, 起, pass (stay in, play on, turn a
    card), a card of the hand, fold, any other action, never a choice marked 包子 (``penalised``:
    only such a choice)."""
    from selenium.common.exceptions import StaleElementReferenceException

    By = _by()
    mark = ".penalised" if penalised else ":not(.penalised)"
    try:
        for css in ("#actions button[data-kind=hu]", "#actions button[data-kind=qi]", "#actions button[data-kind=pass]",
                    "#hand .tile.playable", "#actions button[data-kind=fold]", "#actions button.act"):
            found = [b for b in browser.find_elements(By.CSS_SELECTOR, css + mark) if b.is_enabled()]
            if found:
                found[-1].click()
                return True
    except StaleElementReferenceException:
        return False
    return False


def _long_card_view(browser: Any) -> dict[str, Any]:
    return dict(_js(browser, """
        const cards = [...document.querySelectorAll('#hand .tile.lc')];
        return {hand: cards.map((c) => Number(c.dataset.card)), titles: cards.map((c) => c.title),
                seats: document.querySelectorAll('.seat').length, phase: document.getElementById('phase').innerText,
                view: state.view, glossary: family.glossary,
                stock: document.getElementById('wall').innerText,
                tangzi: [...document.querySelectorAll('.seat')].map((s) => s.querySelectorAll('.tangzi .tile').length),
                groups: [...document.querySelectorAll('.seat')].map((s) => s.querySelectorAll('.meld').length),
                myGroups: document.querySelectorAll('#my-melds .meld').length,
                penalised: [...document.querySelectorAll('#actions .penalised, #hand .penalised')].map(
                    (b) => ({baozi: b.dataset.baozi, text: b.innerText, title: b.title}))};"""))


def test_a_long_card_hand_by_clicking(tmp_path, shots, browser_at):
    """The changpai room at a laptop's window: two hands of 长牌 against two bots, by clicking.  The
    seat sees its own cards as dominoes named in Chinese on hover, the others' as backs, every seat's
    堂子 and declared groups, the stage and whose decision it is; a choice that incurs 包子 is marked
    with its cause before it is taken.  The first hand is played without one, the second by taking
    one: the result names the cause and the offender pays each other seat in points (梯坎番: N + 1)."""
    s = _settings(tmp_path, seed=2, rounds=2)
    browser = browser_at(LAPTOP)
    With = _by()
    with LiveServer(s) as srv:
        _join(browser, srv, "dora", "changpai")
        _wait(lambda: _js(browser, "return familyTable() !== undefined && document.querySelectorAll('#hand .tile.lc').length > 0"),
              "the long-card table was not drawn")
        got = _long_card_view(browser)
        view, faces = got["view"], got["glossary"]["faces"]
        assert got["seats"] == 3 and len(got["hand"]) == sum(view["hand"])
        assert got["hand"] == sorted(f for f, n in enumerate(view["hand"]) for _ in range(n))
        for f, title in zip(got["hand"], got["titles"]):     # the Chinese name and the pips on hover
            assert faces[f]["zh"] in title and "".join(map(str, faces[f]["pips"])) in title, title
        assert got["stock"] == f"stock {view['stock_left']}"
        _check_layout(browser, "laptop, long cards")
        _check_cjk(browser, "#phase")
        browser.save_screenshot(str(shots / "laptop_changpai_start.png"))

        seen: list[dict[str, Any]] = []
        stages: set[str] = set()
        stage_words = {"qi": "起牌 · 起 stage", "stay": "偷牌 · 偷牌 stage"}
        drawn = [0]

        def look() -> None:
            g = _long_card_view(browser)
            if g["view"] is not None:
                stages.add(g["view"]["phase"])
                if g["view"]["to_act"]:
                    assert g["phase"].startswith("Your decision"), g["phase"]
                    assert stage_words.get(g["view"]["phase"], "") in g["phase"], g["phase"]
                elif g["view"]["actor"] is not None and g["view"]["phase"] != "end":
                    assert "to decide" in g["phase"], g["phase"]
                order = [int(x) for x in _js(browser, "return [...document.querySelectorAll('.seat')].map((s) => s.id.slice(5))")]
                table = g["view"]["table"]   # every seat's 堂子 and declared groups, as the view has them
                assert g["tangzi"] == [len(table[k]["tangzi"]) for k in order], (g["tangzi"], table)
                mine = g["view"]["seat"]   # the seat's own groups are drawn beside its hand
                assert g["groups"] == [0 if k == mine else len(table[k]["declared"]) for k in order], (g["groups"], table)
                assert g["myGroups"] == len(table[mine]["declared"]), g
                drawn[0] = max(drawn[0], sum(g["tangzi"]))
            seen.extend(g["penalised"])

        clicks = 0
        end = time.monotonic() + 60
        while not _result_shown(browser):
            assert time.monotonic() < end, "the first hand did not end"
            look()
            clicks += _click_long_card(browser)
            time.sleep(0.03)
        assert clicks >= 5 and stages & {"qi", "stay"} and "turn" in stages, stages   # the 起 or 偷牌 stage, then play
        assert seen, "no choice was marked 包子"
        for p in seen:   # marked with its cause before it was taken: its id and the spec's words
            cause = got["glossary"]["causes"][p["baozi"]]
            assert f"包子 {p['baozi']}" in p["text"] and cause in p["title"], p
        text = _result_shown(browser)
        assert "Round 1 of 2" in text and "this hand" in text
        browser.save_screenshot(str(shots / "laptop_changpai_result.png"))
        browser.find_element(With.ID, "result-continue").click()
        assert drawn[0] > 0, "no 堂子 drawn"

        # the second hand: take the first choice marked 包子
        end = time.monotonic() + 60
        while not _js(browser, "return document.querySelectorAll('#actions .penalised, #hand .penalised').length > 0"):
            assert time.monotonic() < end and not _over(browser), "no choice marked 包子 in the second hand"
            _click_long_card(browser)
            time.sleep(0.03)
        taken = _long_card_view(browser)["penalised"][-1]["baozi"]
        browser.save_screenshot(str(shots / "laptop_changpai_baozi_offered.png"))
        _wait(lambda: _click_long_card(browser, penalised=True), "the marked choice could not be clicked")
        _wait(lambda: _result_shown(browser), "the 包子 hand did not end")
        text = _result_shown(browser)
        assert f"包子 {taken}" in text and "you pay every other seat" in text, text
        _check_cjk(browser, "#result .lc-baozi [lang=zh]")
        browser.save_screenshot(str(shots / "laptop_changpai_baozi.png"))
        _wait(lambda: _over(browser), "the match did not end")
    db = stored(s.db)
    assert len(db["hands"]) == 2 and sum(db["balances"].values()) == 3 * s.opening_balance
    last = db["hands"][-1][2]
    assert last["end"] == "baozi" and last["offender"] == 0 and last["cause"] == taken
    paid = [t for t in db["transfers"] if t[1] == 2]
    assert [(t[2], t[5]) for t in paid] == [("dora", "baozi")] * 2
    assert {t[4] for t in paid} == {last["total"] + 1}     # 梯坎番: N_b + 1 points to each other seat


def test_a_long_card_hand_on_a_phone_by_clicking(tmp_path, shots, browser_at):
    """The changpai room on a phone's screen: a whole hand of 长牌 against two bots, by clicking, as
    the banker (seed 1): the seat's cards (21 dominoes once the banker's extra card is in), the
    actions and the result always inside the window, nothing wider than it, the others' cards as backs."""
    s = _settings(tmp_path, seed=1, rounds=1)
    browser = browser_at(PHONE)
    with LiveServer(s) as srv:
        _join(browser, srv, "dora", "changpai")
        _wait(lambda: _js(browser, "return familyTable() !== undefined && document.querySelectorAll('#hand .tile.lc').length > 0"),
              "the long-card table was not drawn")
        _check_layout(browser, "phone, long cards")
        browser.save_screenshot(str(shots / "phone_changpai_start.png"))
        assert _js(browser, "return state.view.banker === state.view.seat")
        clicks = most = 0
        end = time.monotonic() + 60
        while not _result_shown(browser):
            assert time.monotonic() < end, "the hand did not end"
            held = _js(browser, "return document.querySelectorAll('#hand .tile.lc').length")
            if held:
                _check_layout(browser, "phone, during the hand")
                most = max(most, held)
            clicks += _click_long_card(browser)
            time.sleep(0.03)
        assert clicks >= 3 and most == 21, (clicks, most)
        browser.save_screenshot(str(shots / "phone_changpai_result.png"))
        _check_layout(browser, "phone, the result shown")
