package sysmem

import (
	"bytes"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// unlimited is the least value a cgroup v1 limit reads as no limit
// (the kernel writes 2^63 less a page).
const unlimited = 1 << 62

// cgroupLimit reads the memory limit of the control group that
// procSelfCgroup (the text of /proc/self/cgroup) names, in root (the
// cgroup mount, /sys/fs/cgroup): the least memory.max (v2, in root or
// root/unified) or memory.limit_in_bytes (v1, in root/memory) of the
// group and its ancestors, with what the group already uses (memory.current
// or memory.usage_in_bytes). ok is false when no limit is set.
func cgroupLimit(root fs.FS, procSelfCgroup string) (l Limit, ok bool) {
	for line := range strings.Lines(procSelfCgroup) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var mounts []string
		var limitFile, usageFile, name string
		switch {
		case parts[0] == "0" && parts[1] == "":
			mounts, limitFile, usageFile, name = []string{".", "unified"}, "memory.max", "memory.current", "the cgroup's memory.max"
		case hasController(parts[1], "memory"):
			mounts, limitFile, usageFile, name = []string{"memory"}, "memory.limit_in_bytes", "memory.usage_in_bytes", "the cgroup's memory.limit_in_bytes"
		default:
			continue
		}
		for _, m := range mounts {
			if c, found := leastAlong(root, m, parts[2], limitFile, usageFile); found && (!ok || c.Free < l.Free) {
				c.Name = name
				l, ok = c, true
			}
		}
	}
	return l, ok
}

// hasController says whether a cgroup v1 line's controller list names c.
func hasController(list, c string) bool {
	for x := range strings.SplitSeq(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// leastAlong reads limitFile in mount/group and each of its ancestors
// up to mount, and returns the one that leaves least. A group path that
// does not exist under the mount (another cgroup namespace) is read at
// the mount's root alone.
func leastAlong(root fs.FS, mount, group, limitFile, usageFile string) (l Limit, ok bool) {
	dir := path.Join(mount, strings.TrimPrefix(path.Clean("/"+group), "/"))
	if _, err := fs.Stat(root, dir); err != nil {
		dir = mount
	}
	for {
		if lim, set := readBytes(root, path.Join(dir, limitFile)); set && lim < unlimited {
			used, _ := readBytes(root, path.Join(dir, usageFile))
			if !ok || lim-used < l.Free {
				l, ok = Limit{Bytes: lim, Free: lim - used}, true
			}
		}
		if dir == mount || dir == "." {
			return l, ok
		}
		dir = path.Dir(dir)
	}
}

// readBytes reads a file holding one number of bytes; "max" and a
// missing file read as not set.
func readBytes(root fs.FS, name string) (int64, bool) {
	data, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
	return n, err == nil
}

// statusBytes reads a field of /proc/self/status in kB ("VmSize:  3760
// kB"), in bytes; 0 when missing.
func statusBytes(status []byte, field string) int64 {
	for line := range strings.Lines(string(status)) {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		kb, _ := strconv.ParseInt(f[0], 10, 64)
		return kb << 10
	}
	return 0
}
