"""Draw the README's pictures of ``tricktable tui``: ``python docs/screenshots.py``.

The screens are the snapshot tests' own scenes (``tests/test_tui_snapshots.py``, those
marked ``readme``): the same app driven headless to the same moment, exported as SVG by
Textual and turned into PNG with CairoSVG into ``docs/img/``. Run it from the repository
with the package importable (``PYTHONPATH=src`` or installed) and the dev extra installed
(the scenes live in a test module); ``--only NAME`` draws one scene, ``--svg`` keeps the
SVG beside each PNG.

The SVG asks for the Fira Code web font, which CairoSVG does not load, and it gives each
run of text the length of its cells, which CairoSVG ignores: the text is
drawn in a local monospace font (``--font``, DejaVu Sans Mono by default) with every
character placed at its own cell, or the columns of a font of another width would drift.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import importlib.util
import io
import os
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "img"
#: PNGs over this size are reduced to a palette of colours (the screens have few)
MAX_BYTES = 400_000


def scenes() -> ModuleType:
    """The snapshot tests' module, where the scenes are."""
    path = ROOT / "tests" / "test_tui_snapshots.py"
    sys.path.insert(0, str(path.parent))  # its helpers (tests/tui_helpers.py)
    spec = importlib.util.spec_from_file_location("tui_snapshot_scenes", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the scenes from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def render(scene: Any, close: Any) -> str:
    """The SVG of ``scene``'s screen, drawn headless at its size."""
    app = scene.make()
    try:
        async with app.run_test(size=scene.size) as pilot:
            await scene.drive(pilot)
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            return str(app.export_screenshot())
    finally:
        close(app)


def localised(svg: str, font: str) -> str:
    """``svg`` with its terminal text in ``font``, each character placed at its cell."""
    svg = svg.replace("font-family: Fira Code, monospace;", f'font-family: "{font}";')
    return TEXT_RUN.sub(_per_cell, svg)


#: a run of terminal text in Rich's SVG: its start, its length in pixels, its characters
TEXT_RUN = re.compile(
    r'(<text class="[^"]*" )x="([\d.]+)"( y="[\d.]+") textLength="([\d.]+)"([^>]*>)([^<]*)<'
)


def _per_cell(match: re.Match[str]) -> str:
    """One run of text with an x for each of its characters (CairoSVG ignores the run's
    ``textLength``, so a font of another width would let the run drift off its cells)."""
    head, x, y, length, tail, body = match.groups()
    count = len(html.unescape(body))
    if count < 2:
        return match.group(0)
    start, step = float(x), float(length) / count
    xs = " ".join(f"{start + i * step:.1f}" for i in range(count))
    return f'{head}x="{xs}"{y}{tail}{body}<'


def to_png(svg: str, target: Path) -> int:
    """Write ``svg`` as a PNG at ``target``; its size in bytes."""
    import cairosvg  # type: ignore[import-untyped]
    from PIL import Image

    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    if data is None:
        raise SystemExit("CairoSVG drew nothing")
    if len(data) > MAX_BYTES:
        image = Image.open(io.BytesIO(data)).convert("RGB").quantize(colors=128)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        data = buffer.getvalue()
    target.write_bytes(data)
    return len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="draw only this scene (repeatable)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go")
    parser.add_argument("--font", default="DejaVu Sans Mono", help="the monospace font")
    parser.add_argument("--svg", action="store_true", help="keep the SVGs too")
    args = parser.parse_args(argv)
    try:
        module = scenes()
    except ImportError as exc:
        print(f"cannot load the scenes: {exc} (install the dev extra)", file=sys.stderr)
        return 1
    chosen = [s for s in module.SCENES.values() if s.readme]
    if args.only:
        unknown = set(args.only) - set(module.SCENES)
        if unknown:
            parser.error(
                f"no scene {', '.join(sorted(unknown))}; valid: {', '.join(module.SCENES)}"
            )
        chosen = [module.SCENES[name] for name in args.only]
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    home = Path.cwd()
    os.environ.pop("NO_COLOR", None)  # the README shows the colours
    # The scenes keep their records in ./records: a folder of their own, thrown away.
    with tempfile.TemporaryDirectory(prefix="tui-screens-") as work:
        for scene in chosen:
            scene_dir = Path(work) / scene.name
            scene_dir.mkdir()
            os.chdir(scene_dir)
            try:
                svg = asyncio.run(render(scene, module.close))
            except Exception as exc:  # a scene that no longer gets where it should
                print(f"cannot draw {scene.name}: {exc!r}", file=sys.stderr)
                return 1
            finally:
                os.chdir(home)
            if args.svg:
                (out / f"tui-{scene.name}.svg").write_text(svg, encoding="utf-8")
            target = out / f"tui-{scene.name}.png"
            size = to_png(localised(svg, args.font), target)
            width, height = scene.size
            shown = target.relative_to(home) if target.is_relative_to(home) else target
            print(f"wrote {shown} ({width}x{height} cells, {size // 1000} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
