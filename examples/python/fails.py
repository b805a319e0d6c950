#!/usr/bin/env python3
"""A misbehaving external policy: it fails on every instance with an
exception (exit status 1 and a traceback on standard error), which
netsched reports in an error row naming it, with the traceback's last
lines."""

import json
import sys


def plan(inst):
    raise RuntimeError("fails.py: no schedule for scenario policy %s" % inst["policy"])


for line in sys.stdin:
    plan(json.loads(line))
