//go:build linux || darwin || freebsd || netbsd || openbsd

package store

import "syscall"

// freeSpace is the space, in bytes, an unprivileged writer has left on the
// file system of dir (statfs: available blocks times the block size).
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
