//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package store

import "errors"

// freeSpace is unknown on this system: only failed writes (SQLITE_FULL)
// tell that the disk is full.
func freeSpace(string) (int64, error) {
	return -1, errors.New("free space is not measured on this system")
}
