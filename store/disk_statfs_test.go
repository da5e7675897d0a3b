//go:build linux || darwin || freebsd || netbsd || openbsd

package store

import "testing"

// Where statfs exists, the free space of a real directory is measured.
func TestFreeSpaceOfARealDirectory(t *testing.T) {
	free, err := freeSpace(t.TempDir())
	if err != nil {
		t.Fatalf("free space of a temporary directory: %v", err)
	}
	if free <= 0 {
		t.Fatalf("a writable temporary directory has %d bytes free", free)
	}
}
