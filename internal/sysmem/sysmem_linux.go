//go:build linux

package sysmem

import (
	"os"
	"syscall"
)

func total() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	return int64(info.Totalram) * int64(info.Unit)
}

// rlimits are the resource limits on memory, with the field of
// /proc/self/status that tells what the process already uses of each.
var rlimits = []struct {
	resource int
	name     string
	used     string
}{
	{syscall.RLIMIT_AS, "the address-space limit (ulimit -v)", "VmSize"},
	{syscall.RLIMIT_DATA, "the data-segment limit (ulimit -d)", "VmData"},
}

func limits() []Limit {
	status, _ := os.ReadFile("/proc/self/status")
	var out []Limit
	for _, r := range rlimits {
		var rl syscall.Rlimit
		if err := syscall.Getrlimit(r.resource, &rl); err != nil || rl.Cur >= 1<<62 {
			continue
		}
		lim := int64(rl.Cur)
		out = append(out, Limit{Name: r.name, Bytes: lim, Free: lim - statusBytes(status, r.used)})
	}
	self, _ := os.ReadFile("/proc/self/cgroup")
	if l, ok := cgroupLimit(os.DirFS("/sys/fs/cgroup"), string(self)); ok {
		out = append(out, l)
	}
	return out
}
