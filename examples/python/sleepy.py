#!/usr/bin/env python3
"""A misbehaving external policy: it reads the instance, says so on
standard error, then sleeps far past any sensible timeout. netsched kills
it when its timeout passes and reports an error row naming it."""

import sys
import time

sys.stdin.readline()
print("sleepy: thinking very hard", file=sys.stderr, flush=True)
time.sleep(3600)
