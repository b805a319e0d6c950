#!/bin/sh
# vite-screenshot.sh TRACE.paje OUT.png: opens a Paje trace in ViTE on a
# virtual X display (Xvfb) and saves a screenshot of it, with what ViTE
# printed in OUT.png.log (a warning about the trace would show there).
# Needs vite, xvfb, x11-apps and imagemagick (apt-get install -y vite xvfb
# x11-apps imagemagick). Example:
#
#   netsched gantt docs/examples/crossbar-dag.yaml -p heft --trace heft.paje
#   scripts/vite-screenshot.sh heft.paje results/figures/vite-crossbar-dag-heft.png
set -eu
trace=$1 out=$2
if [ -z "${DISPLAY_READY:-}" ]; then
	exec env DISPLAY_READY=1 xvfb-run -a -s "-screen 0 1280x720x24" "$0" "$@"
fi
QT_QPA_PLATFORM=xcb vite "$trace" > "$out.log" 2>&1 &
pid=$!
sleep 8 # ViTE draws the trace; a screenshot cannot wait on an event of it
xwd -root -silent | convert xwd:- -crop 1060x628+0+0 +repage "$out"
kill "$pid"
