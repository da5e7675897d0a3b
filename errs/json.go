package errs

import (
	"reflect"
	"strings"
)

// JSONType says in words what JSON a Go type takes ("a whole number", "a
// list"), for messages a user reads: Go's own names ("[]report.Metric",
// "int64") mean nothing to them.
func JSONType(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return JSONType(t.Elem())
	}
	return "a value"
}

// UnknownJSONField reports the quoted name in encoding/json's error for an
// unknown field (Decoder.DisallowUnknownFields), as json printed it:
// `"foo"`. That error has no type (golang/go#40982, declined), so this is
// the one place in schedlab that reads an error's text.
func UnknownJSONField(err error) (quoted string, ok bool) {
	return strings.CutPrefix(err.Error(), "json: unknown field ")
}
