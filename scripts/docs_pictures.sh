#!/usr/bin/env bash
# Makes the pictures docs/GETTING_STARTED.md and the README show, with the product itself (so they
# show what a player will see): the roster's marker sheet, the calibration window, the live window and
# its set-up panel, and the live window on the demo battle at three moments and from above. The
# webcam is the synthetic one the documentation tests use (the sample table of
# assets/clips/totsk_small.clip.yaml, and a board video through the same lens; the demo's clip).
#   bash scripts/docs_pictures.sh [BUILD_DIR]      (default build/; needs xvfb-run)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
V="${1:-$ROOT/build}/app/vedette"
OUT="$ROOT/docs/images"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

"$V" print markers --roster assets/rosters/totsk_small.yaml --out "$WORK/markers.png" --png-dpi 100
cp "$WORK/markers.png" "$OUT/markers.png"

"$V" clip assets/clips/totsk_small.clip.yaml --video "$WORK/table.mkv" --truth "$WORK/truth.jsonl" --calib-out "$WORK/cam.yaml" >/dev/null
"$V" render-board charuco:5x7:30:22:DICT_6X6_250 --calib "$WORK/cam.yaml" --video "$WORK/board.avi" >/dev/null
# The calibration window part way: views kept, parts of the picture still to show the board in.
xvfb-run -a -s '-screen 0 1920x1080x24' "$V" calibrate --video "$WORK/board.avi" --board charuco:5x7:30:22:DICT_6X6_250 \
  --out "$WORK/partial.yaml" --max-frames 33 --screenshot "$OUT/calibrate.png" >/dev/null 2>&1 || true

HOME="$WORK" xvfb-run -a -s '-screen 0 1920x1080x24' "$V" live --video "$WORK/table.mkv" --calib "$WORK/cam.yaml" \
  --roster assets/rosters/totsk_small.yaml --ruleset totsk --frames 40 --fast --force --screenshot "$OUT/live.png" >/dev/null
"$V" check --video "$WORK/table.mkv" --calib "$WORK/cam.yaml" --roster assets/rosters/totsk_small.yaml |
  sed "s|view check of .*table.mkv|view check of camera 0 after 1.0 s|" > "$WORK/check.txt" || true
echo "check says (docs/GETTING_STARTED.md quotes it):"
cat "$WORK/check.txt"

# The demo battle's camera (the clip `vedette demo` plays) in the live window: the hand over the
# blue line (frame 30), after BC1 wheeled into R6's flank (130), the end (230), and the table
# from above (T) at the end.
"$V" clip assets/demo/battle.clip.yaml --video "$WORK/demo.mkv" --calib-out "$WORK/demo_cam.yaml" >/dev/null
for at in 30 130 230; do
  HOME="$WORK" xvfb-run -a -s '-screen 0 1920x1080x24' "$V" live --video "$WORK/demo.mkv" --calib "$WORK/demo_cam.yaml" \
    --roster assets/demo/roster.yaml --ruleset totsk --frames "$at" --fast --force --screenshot "$OUT/demo_$at.png" >/dev/null
done
printf 'top_down = 1\nshow_help = 0\n' > "$WORK/top_down.ini"
HOME="$WORK" xvfb-run -a -s '-screen 0 1920x1080x24' "$V" live --video "$WORK/demo.mkv" --calib "$WORK/demo_cam.yaml" \
  --roster assets/demo/roster.yaml --ruleset totsk --frames 230 --fast --settings "$WORK/top_down.ini" \
  --force --screenshot "$OUT/demo_top_down.png" >/dev/null
echo "wrote $OUT: markers.png calibrate.png live.png demo_30.png demo_130.png demo_230.png demo_top_down.png"
