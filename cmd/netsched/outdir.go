package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"syscall"
)

// outputDir collects files and then moves them into place together: files
// are written into a temporary directory beside the target first, so a
// failure or a stop leaves no half-written file behind.
type outputDir struct {
	dir   string
	files []pendingFile
}

type pendingFile struct {
	name  string
	write func(path string) error
}

// add queues a file written by a function given its temporary path.
func (o *outputDir) add(name string, write func(path string) error) {
	o.files = append(o.files, pendingFile{name, write})
}

// addBytes queues a file with the given content.
func (o *outputDir) addBytes(name string, render func(w io.Writer) error) {
	o.add(name, func(path string) error {
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			return err
		}
		return os.WriteFile(path, buf.Bytes(), 0o666)
	})
}

// tmpPrefix begins the name of the temporary directory of a commit.
const tmpPrefix = ".netsched-tmp-"

// commit writes every queued file, then renames them into the directory.
// When ctx ends before the renames, even while a file is being written,
// it removes what it wrote and returns ctx's error at once. It first removes the temporary directories that earlier
// netsched processes of this host left when killed (kill -9).
func (o *outputDir) commit(ctx context.Context) error {
	if err := os.MkdirAll(o.dir, 0o777); err != nil {
		return badInputf("--out: %w", err)
	}
	removeStale(o.dir)
	host, _ := os.Hostname()
	tmp, err := os.MkdirTemp(o.dir, fmt.Sprintf("%s%d@%s-", tmpPrefix, os.Getpid(), host))
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	defer os.RemoveAll(tmp)
	written := make(chan error, 1)
	go func() { written <- o.write(ctx, tmp) }()
	select {
	case err := <-written:
		if err != nil {
			return err
		}
	case <-ctx.Done():
		// A file being drawn (a large Gantt chart) does not watch ctx:
		// stop waiting for it. What is written goes with tmp; a file
		// the drawing finishes after that goes with the next run's
		// removeStale.
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, f := range o.files {
		if err := os.Rename(filepath.Join(tmp, f.name), filepath.Join(o.dir, f.name)); err != nil {
			return fmt.Errorf("moving %s into %s: %w", f.name, o.dir, err)
		}
	}
	return nil
}

// write writes every queued file into tmp, until ctx ends.
func (o *outputDir) write(ctx context.Context, tmp string) error {
	for _, f := range o.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := f.write(filepath.Join(tmp, f.name)); err != nil {
			return fmt.Errorf("writing %s: %w", f.name, err)
		}
	}
	return nil
}

// tmpName reads the pid and host from the name of a commit's temporary
// directory.
var tmpName = regexp.MustCompile(`^` + regexp.QuoteMeta(tmpPrefix) + `(\d+)@(.*)-\d+$`)

// removeStale removes the temporary directories in dir of netsched
// processes of this host that no longer run, which a kill -9 left.
func removeStale(dir string) {
	if runtime.GOOS == "windows" {
		return // no signal 0 to probe a process with
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	host, _ := os.Hostname()
	for _, e := range entries {
		m := tmpName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() || m[2] != host {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || running(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// running says whether a process of this pid exists (signal 0 reaches
// it, or it belongs to another user).
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// checkOutDir refuses, before anything runs, an --out that cannot be a
// directory: a file, or a path below a file.
func checkOutDir(dir string) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			if d == dir {
				return badInputf("--out %s: is a file, not a directory", dir)
			}
			return badInputf("--out %s: %s is a file, not a directory", dir, d)
		case err == nil:
			return nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return badInputf("--out %s: %w", dir, err)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
