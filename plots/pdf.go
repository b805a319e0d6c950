package plots

import (
	"os"
	"strconv"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// PDFDate is the CreationDate and ModDate written into every PDF: the time
// that SOURCE_DATE_EPOCH gives in seconds (the reproducible-builds
// convention), or else the Unix epoch. gonum/plot's PDF backend would stamp
// the current time, and the same figure would not give the same bytes.
func PDFDate() time.Time {
	if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(s, 0).UTC()
	}
	return time.Unix(0, 0).UTC()
}

// init sets the PDF library's defaults once, before any figure is drawn:
// every PDF of the process then has PDFDate's dates and its resource
// catalogs in a fixed order.
func init() {
	fpdf.SetDefaultCreationDate(PDFDate())
	fpdf.SetDefaultModificationDate(PDFDate())
	fpdf.SetDefaultCatalogSort(true)
}
