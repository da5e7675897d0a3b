package store

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
)

// OpenReport is what Open found in the database's write-ahead log before
// SQLite read it, and what the integrity check (CheckIntegrity) found.
// SQLite recovers a WAL silently: it replays the frames up to the last
// commit before the first frame that fails its checksum and ignores the
// rest, so a damaged WAL loses acknowledged transactions without a word.
// Open reads the WAL itself first and says what was kept and what lost.
type OpenReport struct {
	// WALBytes is the size of the -wal file at opening (0: none).
	WALBytes int64 `json:"wal_bytes"`
	// WALFrames is how many whole frames it holds.
	WALFrames int `json:"wal_frames"`
	// Recovered is how many transactions (commit frames) SQLite replays.
	Recovered int `json:"recovered_transactions"`
	// LostTransactions counts the committed transactions in the WAL that
	// SQLite ignores because a frame at or before them is damaged.
	LostTransactions int `json:"lost_transactions"`
	// LostFrames counts the frames of the WAL's current generation past the
	// last one SQLite replays (an unfinished transaction's frames included).
	LostFrames int `json:"lost_frames"`
	// Damage says what is wrong with the WAL, in words ("" when nothing).
	Damage string `json:"damage,omitempty"`
	// Integrity is the result of PRAGMA quick_check: "ok", the problems
	// it found, "" when not checked yet, or "checking".
	Integrity string `json:"integrity,omitempty"`
}

// Problems lists, in words, what an operator must know: transactions lost
// from a damaged WAL, and a failed integrity check.
func (r OpenReport) Problems() []string {
	var out []string
	if r.LostTransactions > 0 {
		out = append(out, fmt.Sprintf("the write-ahead log was damaged (%s): %d committed transaction(s) in it were lost at start, %d recovered",
			r.Damage, r.LostTransactions, r.Recovered))
	}
	if r.Integrity != "" && r.Integrity != "ok" && r.Integrity != "checking" {
		out = append(out, "the database fails its integrity check (PRAGMA quick_check): "+r.Integrity)
	}
	return out
}

// walCheck holds the OpenReport behind a lock: CheckIntegrity fills it in
// while the server serves.
type walCheck struct {
	mu sync.Mutex
	r  OpenReport
}

// Opened returns what the checks at opening found.
func (s *Store) Opened() OpenReport {
	s.opened.mu.Lock()
	defer s.opened.mu.Unlock()
	return s.opened.r
}

// WAL format (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte
// header, then frames of a 24-byte header and one page. All integers are
// big-endian; the checksums are over 32-bit words in the byte order the
// magic number names.
const (
	walHeaderSize      = 32
	walFrameHeaderSize = 24
	walMagicLE         = 0x377f0682
	walMagicBE         = 0x377f0683
)

// walChecksum continues the WAL checksum (s0, s1) over b, whose length is
// a multiple of 8.
func walChecksum(bigEndian bool, s0, s1 uint32, b []byte) (uint32, uint32) {
	order := binary.ByteOrder(binary.LittleEndian)
	if bigEndian {
		order = binary.BigEndian
	}
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// inspectWAL reads the write-ahead log of the database at path as SQLite's
// recovery will, and reports what it keeps and what it ignores. A missing
// WAL is an empty report.
func inspectWAL(path string) (OpenReport, error) {
	var r OpenReport
	f, err := os.Open(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return r, err
	}
	r.WALBytes = fi.Size()
	if r.WALBytes < walHeaderSize {
		return r, nil // empty, or a header never finished: nothing was committed in it
	}
	br := bufio.NewReaderSize(f, 1<<16)
	hdr := make([]byte, walHeaderSize)
	if _, err := io.ReadFull(br, hdr); err != nil {
		return r, err
	}
	be := binary.BigEndian
	magic, pageSize := be.Uint32(hdr[0:]), be.Uint32(hdr[8:])
	bigEndian := magic == walMagicBE
	headerOK := magic == walMagicLE || magic == walMagicBE
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		headerOK = false
	}
	if headerOK {
		c0, c1 := walChecksum(bigEndian, 0, 0, hdr[:24])
		headerOK = c0 == be.Uint32(hdr[24:]) && c1 == be.Uint32(hdr[28:])
	}
	salt1, salt2 := be.Uint32(hdr[16:]), be.Uint32(hdr[20:])
	if !headerOK {
		// SQLite ignores the whole log. Count what it held: the frames that
		// share the first frame's salts, if the page size can be guessed.
		if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
			r.Damage = "its header is unreadable"
			r.LostTransactions = -1
			return r, nil
		}
	}
	frameSize := int64(walFrameHeaderSize) + int64(pageSize)
	r.WALFrames = int((r.WALBytes - walHeaderSize) / frameSize)
	s0, s1 := be.Uint32(hdr[24:]), be.Uint32(hdr[28:])
	frame := make([]byte, frameSize)
	valid := headerOK // still in the run of valid frames
	if !headerOK {
		r.Damage = "its header fails its checksum, so SQLite ignores the whole log"
	}
	for i := 1; i <= r.WALFrames; i++ {
		if _, err := io.ReadFull(br, frame); err != nil {
			return r, err
		}
		fs1, fs2 := be.Uint32(frame[8:]), be.Uint32(frame[12:])
		commit := be.Uint32(frame[4:]) != 0
		if !headerOK && i == 1 {
			salt1, salt2 = fs1, fs2
		}
		if fs1 != salt1 || fs2 != salt2 {
			// A frame of an earlier generation of the log (checkpointed
			// already) ends the current one: nothing after it is new.
			break
		}
		if valid {
			c0, c1 := walChecksum(bigEndian, s0, s1, frame[:8])
			c0, c1 = walChecksum(bigEndian, c0, c1, frame[walFrameHeaderSize:])
			if c0 != be.Uint32(frame[16:]) || c1 != be.Uint32(frame[20:]) {
				valid = false
				r.Damage = fmt.Sprintf("frame %d of %d fails its checksum", i, r.WALFrames)
			} else {
				s0, s1 = c0, c1
				if commit {
					r.Recovered++
					r.LostFrames = 0
				} else {
					r.LostFrames++ // an unfinished transaction, unless a commit follows
				}
				continue
			}
		}
		r.LostFrames++
		if commit {
			r.LostTransactions++
		}
	}
	return r, nil
}

// logOpenReport says what the WAL check found: an error when committed
// transactions were lost, a warning when an unfinished one was dropped, a
// line when some were recovered.
func logOpenReport(path string, r OpenReport) {
	switch {
	case r.LostTransactions != 0:
		lost := fmt.Sprint(r.LostTransactions)
		if r.LostTransactions < 0 {
			lost = "an unknown number of"
		}
		slog.Error("store: the database's write-ahead log is damaged: SQLite ignores the rest of it, and committed transactions are LOST",
			"db", path, "damage", r.Damage, "lost_transactions", lost, "recovered_transactions", r.Recovered,
			"wal_frames", r.WALFrames, "lost_frames", r.LostFrames,
			"advice", "stop schedlab and keep a copy of "+path+"-wal before anything else writes; restore from a backup (schedlab backup) if the loss matters")
	case r.LostFrames > 0:
		// A transaction under way at the stop was dropped: never
		// committed, so never acknowledged, but work was lost (issue 41:
		// a WAL that lost anything is logged at warning level at least).
		slog.Warn("store: dropped an unfinished transaction from the write-ahead log (the last stop was not clean); every committed one was recovered",
			"db", path, "recovered_transactions", r.Recovered, "unfinished_frames_dropped", r.LostFrames)
	case r.Recovered > 0:
		slog.Info("store: recovered transactions from the write-ahead log (the last stop was not clean)",
			"db", path, "recovered_transactions", r.Recovered)
	}
}

// CheckIntegrity runs PRAGMA quick_check (it reads every page: seconds
// per gigabyte), keeps its result in Opened().Integrity, logs a failure
// at error level and returns the result: "ok" or the problems found.
func (s *Store) CheckIntegrity(ctx context.Context) (string, error) {
	s.opened.mu.Lock()
	s.opened.r.Integrity = "checking"
	s.opened.mu.Unlock()
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(20)")
	var found []string
	if err == nil {
		for rows.Next() {
			var line string
			if err = rows.Scan(&line); err != nil {
				break
			}
			found = append(found, line)
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
	}
	res := strings.Join(found, "; ")
	if ctx.Err() != nil { // stopped (the server is stopping): not a finding
		s.opened.mu.Lock()
		s.opened.r.Integrity = ""
		s.opened.mu.Unlock()
		return "", dbErr(ctx.Err())
	}
	if err != nil {
		res = "the check could not run: " + err.Error()
	}
	s.opened.mu.Lock()
	s.opened.r.Integrity = res
	s.opened.mu.Unlock()
	if res != "ok" {
		slog.Error("store: the database fails its integrity check (PRAGMA quick_check)", "problems", res,
			"advice", "restore from a backup (schedlab backup), or copy what reads with the sqlite3 shell's .recover")
	}
	return res, dbErr(err)
}
