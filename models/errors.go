package models

import "fmt"

// FieldError is a validation error tied to one field of a model, named by a
// dotted path such as "platform.crossbar.processors[2].gamma". Loaders use the
// path to point the user at the line of the input file that holds the field.
type FieldError struct {
	Path string // dotted path of the offending field
	Msg  string // what is wrong with it
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// fieldErr builds a *FieldError with a formatted message.
func fieldErr(path, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// joinPath appends a field name or an index to a dotted path.
func joinPath(path, field string) string {
	if path == "" {
		return field
	}
	if field != "" && field[0] == '[' {
		return path + field
	}
	return path + "." + field
}

func index(i int) string { return fmt.Sprintf("[%d]", i) }
