package formats

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
)

// Limits bound what a reader accepts; zero means no limit. Exceeding a limit
// is errs.TooLarge, reported before the rest of the file is read.
type Limits struct {
	MaxRows int // data rows; one more row is read in case it is a header
	MaxCols int // cells per row, a label column included
}

// Record is one CSV row: its 1-based line in the file and its trimmed cells.
type Record struct {
	Line   int
	Fields []string
}

// Matrix is a numeric table read from CSV. Values is rectangular
// (len(Values) rows of equal length) and every value is finite.
type Matrix struct {
	// ColNames are the header's names of the value columns (the label
	// column's header cell excluded); nil when the file has no header.
	ColNames []string
	// RowNames are the labels of the leading label column; nil when the
	// file has none.
	RowNames []string
	Values   [][]float64
	// Lines[r] is the line of the file that row r came from.
	Lines []int
	// LabelColumn is 1 when the file has a label column, else 0: add it to a
	// 1-based value column to get the file's column number.
	LabelColumn int
}

// Rows and Cols report the matrix's shape.
func (m *Matrix) Rows() int { return len(m.Values) }

// Cols reports the number of value columns (0 for an empty matrix).
func (m *Matrix) Cols() int {
	if len(m.Values) == 0 {
		return 0
	}
	return len(m.Values[0])
}

// Cell names one cell of a file for an error's Field: "etc.csv line 3
// column 2". col is a 1-based column number or a column name ("tasks").
func Cell(file string, line int, col any) string {
	return fmt.Sprintf("%s line %d column %v", file, line, col)
}

// Line names one line of a file for an error's Field: "etc.csv line 3".
func Line(file string, line int) string {
	return fmt.Sprintf("%s line %d", file, line)
}

// ReadRecords reads CSV data into records. It checks the syntax and that
// every row has as many cells as the first; it does not look at the cells.
// name is the file's name as the user knows it, used in errors.
func ReadRecords(name string, data []byte, lim Limits) ([]Record, error) {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1 // ragged rows are reported below with their line
	r.TrimLeadingSpace = true
	r.Comment = '#'
	r.ReuseRecord = false
	var out []Record
	width := -1
	firstLine := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, errs.Invalidf(Line(name, pe.Line), "malformed CSV: %v", pe.Err)
			}
			return nil, errs.Invalidf(name, "malformed CSV: %v", err)
		}
		line, _ := r.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rec) == 1 && rec[0] == "" {
			continue // a line of spaces
		}
		if width < 0 {
			width, firstLine = len(rec), line
			if lim.MaxCols > 0 && width > lim.MaxCols {
				return nil, errs.New(errs.TooLarge, Line(name, line), "%d columns, at most %d allowed", width, lim.MaxCols)
			}
		} else if len(rec) != width {
			return nil, errs.Invalidf(Line(name, line), "%d cells, expected %d as on line %d", len(rec), width, firstLine)
		}
		// One row more than MaxRows is read: the first may be a header.
		if lim.MaxRows > 0 && len(out) > lim.MaxRows {
			return nil, errs.New(errs.TooLarge, Line(name, line), "more than %d rows", lim.MaxRows)
		}
		out = append(out, Record{Line: line, Fields: rec})
	}
	if len(out) == 0 {
		return nil, errs.Invalidf(name, "the file is empty: no CSV rows")
	}
	return out, nil
}

// ParseNumber parses one cell as a finite float.
func ParseNumber(s string) (float64, error) {
	if s == "" {
		return 0, errors.New("empty cell, expected a number")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %q", clip(s))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("must be a finite number, got %q", clip(s))
	}
	return f, nil
}

// numeric reports whether s has number syntax, NaN and Inf included: such a
// cell is data (possibly bad data), never a header or a label.
func numeric(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// LooksLikeHeader reports whether a first row is a header rather than data:
// some cell after the first is not a number, or it is a single non-numeric
// cell.
func LooksLikeHeader(fields []string) bool {
	if len(fields) == 1 {
		return !numeric(fields[0])
	}
	return slices.ContainsFunc(fields[1:], func(f string) bool { return !numeric(f) })
}

// ReadMatrix reads a numeric matrix from CSV data: header optional, row
// labels optional (see the package comment), every value finite.
func ReadMatrix(name string, data []byte, lim Limits) (*Matrix, error) {
	recs, err := ReadRecords(name, data, lim)
	if err != nil {
		return nil, err
	}
	m := &Matrix{}
	var header []string
	if LooksLikeHeader(recs[0].Fields) {
		header = recs[0].Fields
		recs = recs[1:]
	}
	if len(recs) == 0 {
		return nil, errs.Invalidf(name, "no data rows, only a header")
	}
	if lim.MaxRows > 0 && len(recs) > lim.MaxRows {
		return nil, errs.New(errs.TooLarge, Line(name, recs[lim.MaxRows].Line), "more than %d rows", lim.MaxRows)
	}
	width := len(recs[0].Fields)
	labelled := width > 1 && !slices.ContainsFunc(recs, func(r Record) bool { return numeric(r.Fields[0]) })
	if labelled {
		m.LabelColumn = 1
		m.RowNames = make([]string, len(recs))
	}
	if header != nil {
		m.ColNames = append([]string(nil), header[m.LabelColumn:]...)
	}
	m.Values = make([][]float64, len(recs))
	m.Lines = make([]int, len(recs))
	for i, r := range recs {
		if labelled {
			m.RowNames[i] = r.Fields[0]
		}
		row := make([]float64, width-m.LabelColumn)
		for j := range row {
			v, err := ParseNumber(r.Fields[j+m.LabelColumn])
			if err != nil {
				return nil, errs.Invalidf(Cell(name, r.Line, j+m.LabelColumn+1), "%v", err)
			}
			row[j] = v
		}
		m.Values[i] = row
		m.Lines[i] = r.Line
	}
	return m, nil
}

func clip(s string) string {
	const max = 40
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
