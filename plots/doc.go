// Package plots draws what netsched runs produce: Gantt charts of a
// sim.Trace (one lane per processor and per link, coloured by kind, round or
// task label) and comparison plots of a metric against a swept parameter
// (one line per policy, error bars over seeds).
//
// Figures are meant to go into papers as they are: axes name quantities
// with their symbols and units (LookupQuantity), a policy keeps its
// colour, dash pattern and marker in every figure drawn with the same
// Styles, curves that coincide stay visible, log axes are ticked 1-2-5
// over short ranges and never padded to whole decades, ParseSize reads a
// printed size (8.5cm×6cm, one-column, two-column) with font sizes to
// match, and Gantt charts keep under a height cap by lowering their lanes
// and naming them by group, with lane and time-window selection.
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
