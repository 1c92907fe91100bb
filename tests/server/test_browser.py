"""The web table in a real browser: headless Chromium from the system packages driven by Selenium
through the distribution's chromedriver, on a phone-sized window.  It opens the page, joins a
room, plays a round against a bot by clicking tiles and buttons (reloading the page once: the
seat resumes from the token the page kept), and saves a screenshot
(``MAHJONG_SCREENSHOT_DIR`` to keep it; else pytest's temporary directory).

Under CI (``CI=true``) a missing browser fails the test (``.ci/run`` installs chromium and
chromium-driver); elsewhere it is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import LiveServer, stored


def _need(what: str, path: str | None) -> str:
    if path is None:
        reason = f"{what} is not installed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    return path


def _driver():  # type: ignore[no-untyped-def]
    chromium = _need("chromium", shutil.which("chromium") or shutil.which("chromium-browser"))
    driver = _need("chromedriver", shutil.which("chromedriver"))
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=412,915", "--hide-scrollbars"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=driver), options=opts)


def test_play_a_round_against_a_bot_by_clicking(tmp_path):
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    s = ServerSettings(db=str(tmp_path / "browser.sqlite3"), bots=True, rounds=1, seed=3, tick_s=0.05,
                       act_timeout_s=60.0)
    browser = _driver()
    try:
        with LiveServer(s) as srv:
            browser.get(srv.base + "/")
            browser.find_element(By.ID, "name").send_keys("browser")
            # the coins room: a reload closes the client, which is an escape in the bamboo room
            Select(browser.find_element(By.ID, "room")).select_by_value("coins")
            browser.find_element(By.ID, "join").click()
            out = Path(os.environ.get("MAHJONG_SCREENSHOT_DIR", tmp_path))
            out.mkdir(parents=True, exist_ok=True)
            clicks, during, reloaded = 0, False, False
            end = time.monotonic() + 60
            while "match over" not in browser.find_element(By.ID, "phase").text:
                assert time.monotonic() < end, "the round did not end"
                if not during and browser.find_elements(By.CSS_SELECTOR, "#actions button[data-kind=pass]"):
                    during = browser.save_screenshot(str(out / "web_table_claim.png"))   # a claim window
                target = None
                for css in ("#actions button[data-kind=win]", "#actions button[data-kind=pass]",
                            "#hand .tile.playable", "#actions button.act"):
                    found = [b for b in browser.find_elements(By.CSS_SELECTOR, css) if b.is_enabled()]
                    if found:
                        target = found[-1]
                        break
                if target is not None:
                    try:
                        target.click()
                        clicks += 1
                    except (StaleElementReferenceException, ElementClickInterceptedException):
                        continue   # redrawn under the pointer: look again
                if clicks == 3 and not reloaded:    # reload the page: the seat resumes from its token
                    browser.refresh()
                    browser.find_element(By.ID, "resume").click()
                    reloaded = True
                time.sleep(0.05)
            assert reloaded
            result = browser.find_element(By.ID, "result")
            assert result.is_displayed() and "Round 1" in result.text and "Balances" in result.text
            # phone-sized: nothing wider than the screen
            assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
            assert browser.save_screenshot(str(out / "web_table.png"))
        assert clicks >= 5, "the round was played by clicking"
        db = stored(s.db)
        assert len(db["hands"]) == 1 and sum(db["balances"].values()) == 2 * s.opening_balance
    finally:
        browser.quit()
