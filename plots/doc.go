// Package plots draws what netsched runs produce: Gantt charts of a
// sim.Trace (one lane per processor and per link, coloured by kind, round or
// task label) and comparison plots of a metric against a swept parameter
// (one line per policy, error bars over seeds).
//
// Every figure is written by the format its file extension names (.png,
// .svg or .pdf, through gonum/plot's vg backends), atomically: the bytes go
// to a temporary file in the same directory, which is renamed over the
// target only when complete, so a failure never leaves a half-written file.
//
// Every text is set in one font, Liberation Serif, which has the Greek
// letters, arrows and dashes that labels use (ρ, β, →, —), and every format
// carries it: PNG draws its glyphs, PDF embeds the subset of it that the
// page uses, with Unicode text that can be searched and copied, and SVG
// draws the glyphs' outlines, so no viewer substitutes another font. A
// figure looks the same in every format and on every machine.
//
// Output is byte-for-byte deterministic in every format: a PDF's
// CreationDate and ModDate are PDFDate (SOURCE_DATE_EPOCH, or the Unix
// epoch), not the current time.
package plots
