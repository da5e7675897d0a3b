package handlers

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"sync"

	"github.com/labstack/echo/v4"

	"schedlab/static"
)

// A large result page is mostly a cached fragment (megabytes of report)
// around a little HTML rendered per request (the layout, the forms with
// their CSRF token, the CSP nonces). Compressing the whole page per request
// would cost more CPU than sending it; not compressing it sends megabytes
// per view. So each shared piece is compressed once, on first use, as a
// raw DEFLATE segment ending in a sync flush (an empty stored block: byte
// aligned, not final), and a response is one gzip member (RFC 1952) whose
// DEFLATE stream is the concatenation of
//
//	the per-request pieces, compressed now (BestSpeed) and sync-flushed,
//	the shared pieces' stored segments, in page order,
//	one final empty block,
//
// then the CRC-32 and length of the whole page. A DEFLATE stream is a
// sequence of blocks and a back-reference never reaches before the
// segment that made it (each segment starts with an empty window), so the
// joined stream is valid and decodes to the page. The CRC-32 of the page
// is combined from each piece's CRC-32 and length (crc32Combine, the
// GF(2) method of zlib's crc32_combine), so a request computes the CRC of
// its own small pieces only, not of the megabytes it shares.

// shared is bytes that never change, held by reference in pages, with
// their DEFLATE segment made once on first use.
type shared struct {
	b    []byte
	once sync.Once
	z    []byte
	crc  uint32 // CRC-32 (IEEE) of b
}

func newShared(b []byte) *shared { return &shared{b: b} }

// deflated is s's DEFLATE segment (sync-flushed, not final).
func (s *shared) deflated() []byte {
	s.once.Do(func() {
		s.z = deflateSegment(s.b, flate.DefaultCompression)
		s.crc = crc32.ChecksumIEEE(s.b)
	})
	return s.z
}

// deflaters pools BestSpeed writers for the per-request pieces.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// deflateSegment compresses b into a DEFLATE segment that any other
// segment may follow: it ends with a sync flush and has no final block.
func deflateSegment(b []byte, level int) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b)/4 + 64)
	var w *flate.Writer
	if level == flate.BestSpeed {
		w = deflaters.Get().(*flate.Writer)
		defer deflaters.Put(w)
		w.Reset(&buf)
	} else {
		w, _ = flate.NewWriter(&buf, level)
	}
	w.Write(b)
	w.Flush()
	return buf.Bytes()
}

// storeBelow is the size under which a per-request piece (a nonce
// attribute, a CSRF field) is stored, not compressed: a compressor's reset
// costs more than the few bytes it would save.
const storeBelow = 512

// storedBlock is b as one non-final stored DEFLATE block (RFC 1951 §3.2.4),
// which starts and ends byte aligned; len(b) < 65536.
func storedBlock(b []byte) []byte {
	n := uint16(len(b))
	out := make([]byte, 0, 5+len(b))
	out = append(out, 0x00, byte(n), byte(n>>8), byte(^n), byte(^n>>8))
	return append(out, b...)
}

// finalBlock is an empty final stored block: BFINAL=1, BTYPE=00, aligned,
// LEN=0, NLEN=0xffff. It closes the joined stream.
var finalBlock = []byte{0x01, 0x00, 0x00, 0xff, 0xff}

// gzipHeader is a gzip member header: magic, deflate, no flags, no time,
// no extra flags, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// gzipMin is the smallest page worth compressing: below it the gzip
// framing and the CPU cost more than the bytes saved.
const gzipMin = 1 << 10

// wantsGzip says whether the client takes a gzip body.
func wantsGzip(c echo.Context) bool {
	return static.AcceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
}

// gzipParts returns the gzip member of pieces (per-request bytes, or
// shared), as parts to write in order, and its length.
func gzipParts(pieces []seg) ([][]byte, int) {
	out := make([][]byte, 0, len(pieces)+3)
	out = append(out, gzipHeader)
	n := len(gzipHeader)
	crc := uint32(0)
	size := 0
	for _, p := range pieces {
		var z []byte
		if p.sh != nil {
			z = p.sh.deflated()
			crc = crc32Combine(crc, p.sh.crc, int64(len(p.sh.b)))
			size += len(p.sh.b)
		} else {
			if len(p.b) == 0 {
				continue
			}
			crc = crc32.Update(crc, crc32.IEEETable, p.b)
			size += len(p.b)
			if len(p.b) < storeBelow {
				z = storedBlock(p.b)
			} else {
				z = deflateSegment(p.b, flate.BestSpeed)
			}
		}
		out = append(out, z)
		n += len(z)
	}
	trailer := make([]byte, 0, len(finalBlock)+8)
	trailer = append(trailer, finalBlock...)
	trailer = binary.LittleEndian.AppendUint32(trailer, crc)
	trailer = binary.LittleEndian.AppendUint32(trailer, uint32(size))
	out = append(out, trailer)
	return out, n + len(trailer)
}

// crc32Combine returns the CRC-32 (IEEE) of A followed by B from crc1 =
// CRC(A), crc2 = CRC(B) and len2 = len(B): appending len2 zero bytes to A
// is a linear map on the CRC register, applied here by squaring the
// one-zero-bit operator (a 32×32 matrix over GF(2)) along the bits of
// len2, as zlib's crc32_combine does; then B's CRC is added (xor).
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = 0xedb88320 // the reflected IEEE polynomial: one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four zero bits
	for {
		gf2Square(&even, &odd) // one zero byte, then 4, 16, ... bytes
		if len2&1 != 0 {
			crc1 = gf2Times(&even, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		gf2Square(&odd, &even)
		if len2&1 != 0 {
			crc1 = gf2Times(&odd, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range square {
		square[n] = gf2Times(mat, mat[n])
	}
}
