"""The server is an optional part: ``import mahjong_core`` and the command line work without its
dependencies, and ``serve`` without them is a usage error naming the extra (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mahjong_core.errors import MahjongError
from mahjong_core.server import ServerSettings

BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("starlette", "uvicorn", "websockets", "httpx", "selenium"):
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    import mahjong_core

    path = str(Path(mahjong_core.__file__).resolve().parents[1])   # the package this session tests
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, timeout=120,
                          check=False, env={"PYTHONPATH": path, "PATH": "/usr/bin:/bin"})


def test_the_package_and_the_cli_import_without_the_server_extra():
    proc = _run("import mahjong_core, mahjong_core.cli, mahjong_core.server, mahjong_core.server.table, "
                "mahjong_core.server.store\n"
                "mahjong_core.cli.build_parser()\n"
                "assert not {'starlette', 'uvicorn', 'websockets'} & set(sys.modules)\n"
                "print(mahjong_core.server.ServerSettings().host)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "127.0.0.1"      # loopback unless told otherwise


def test_serve_without_the_extra_is_a_usage_error():
    proc = _run("from mahjong_core.cli import main\nraise SystemExit(main(['serve', '--port', '0']))")
    assert proc.returncode == 2, proc.stderr
    assert 'pip install "mahjong-core[server]"' in proc.stderr


@pytest.mark.parametrize("kw", [{"port": 70000}, {"host": ""}, {"act_timeout_s": 0}, {"away_limit_s": -1.0},
                                {"disconnect_limit": 0}, {"bots": 1}, {"compression": "no"}, {"rounds": 0}, {"tick_s": float("nan")},
                                {"max_message_bytes": 10}, {"seed": -1}])
def test_settings_refuse_bad_values(kw):
    with pytest.raises(MahjongError):
        ServerSettings(**kw)


def test_room_clock_overrides():
    s = ServerSettings(away_limit_s=0.5, disconnect_limit=2)
    room = s.room("bamboo")
    assert room.away_limit_s == 0.5 and room.escape_disconnects == 2 and room.escape_penalty == 60
    assert ServerSettings().room("bamboo").away_limit_s == 90.0
