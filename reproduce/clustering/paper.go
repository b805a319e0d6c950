package clustering

// PaperRhos are the delays of paper 002's experiments (§5.2).
func PaperRhos() []float64 { return []float64{1.5, 3, 5, 8, 10, 14} }

// PaperTable is a table of paper 002 §5.2: for each graph size (tasks,
// dummy nodes included), one value per delay of PaperRhos (ratio tables)
// or per algorithm (run-time tables, in ms on a 3.2 GHz Pentium).
type PaperTable struct {
	ID, Caption string
	Columns     []string
	Sizes       []int
	Values      [][]float64
}

// PaperTables returns the tables of paper 002 that netsched reproduces, by
// ID: "1min" and "1avg" (Table 1, Cross-A/Convex-A on STG, Min/Min and
// Avg/Min), "2" (run times of Convex-A and Cross-A), "4" and "5" (FFT and
// Gaussian elimination against Convex-A), "6" (against CASS-II on STG),
// "7" (run times of CASS-II and Cross-A), "8" and "9" (FFT and Gaussian
// elimination against CASS-II). Rows 511–2559 of Table 8 repeat those of
// Table 4 in the paper, and its row 223 differs in two entries only; they
// are given as printed.
func PaperTables() map[string]PaperTable {
	rhos := []string{"1.5", "3.0", "5.0", "8.0", "10.0", "14.0"}
	stg := []int{302, 752, 1252, 1752}
	fft := []int{223, 511, 1151, 2559}
	ge := []int{299, 495, 989, 1952}
	t := func(id, caption string, cols []string, sizes []int, v ...[]float64) PaperTable {
		return PaperTable{ID: id, Caption: caption, Columns: cols, Sizes: sizes, Values: v}
	}
	return map[string]PaperTable{
		"1min": t("1min", "Table 1 (Min/Min): Cross-A against Convex-A, STG random graphs", rhos, stg,
			[]float64{0.899, 0.904, 0.890, 0.874, 0.867, 0.859},
			[]float64{0.898, 0.895, 0.889, 0.866, 0.863, 0.834},
			[]float64{0.927, 0.932, 0.919, 0.887, 0.869, 0.816},
			[]float64{0.895, 0.891, 0.876, 0.851, 0.825, 0.824}),
		"1avg": t("1avg", "Table 1 (Avg/Min): Cross-A against Convex-A, STG random graphs", rhos, stg,
			[]float64{0.932, 0.941, 0.935, 0.927, 0.926, 0.932},
			[]float64{0.922, 0.922, 0.920, 0.902, 0.901, 0.881},
			[]float64{0.944, 0.951, 0.941, 0.906, 0.889, 0.835},
			[]float64{0.911, 0.910, 0.897, 0.874, 0.850, 0.851}),
		"2": t("2", "Table 2: run time of one run (ms), Convex-A and Cross-A", []string{"Convex-A", "Cross-A"}, stg,
			[]float64{36.1, 145.0}, []float64{243.6, 1261.2}, []float64{1261.2, 2734.5}, []float64{2245.9, 10495.8}),
		"4": t("4", "Table 4: Cross-A against Convex-A, FFT", rhos, fft,
			[]float64{0.957, 0.912, 0.978, 0.950, 0.865, 0.888},
			[]float64{0.966, 0.886, 0.898, 0.827, 0.918, 0.839},
			[]float64{1.015, 0.900, 0.914, 0.939, 0.776, 0.805},
			[]float64{0.974, 0.883, 0.916, 0.848, 0.970, 0.845}),
		"5": t("5", "Table 5: Cross-A against Convex-A, Gaussian elimination", rhos, ge,
			[]float64{0.846, 0.883, 0.926, 0.952, 0.939, 1.257},
			[]float64{0.856, 0.868, 0.957, 0.912, 0.967, 0.976},
			[]float64{0.859, 0.897, 0.905, 0.919, 0.933, 0.975},
			[]float64{0.869, 0.858, 0.895, 0.936, 0.916, 0.987}),
		"6": t("6", "Table 6: Cross-A against CASS-II, STG random graphs", rhos, stg,
			[]float64{1.063, 1.026, 0.999, 0.950, 0.931, 0.902},
			[]float64{1.078, 1.049, 1.027, 0.980, 0.963, 0.940},
			[]float64{1.088, 1.057, 1.035, 0.992, 0.975, 0.953},
			[]float64{1.088, 1.061, 1.039, 0.993, 0.975, 0.953}),
		"7": t("7", "Table 7: run time of one run (ms), CASS-II and Cross-A", []string{"CASS-II", "Cross-A"}, stg,
			[]float64{7.7, 145.0}, []float64{29.6, 1158.1}, []float64{58.0, 2734.5}, []float64{92.5, 10495.8}),
		"8": t("8", "Table 8: Cross-A against CASS-II, FFT", rhos, fft,
			[]float64{0.907, 1.000, 0.978, 0.950, 0.865, 0.888},
			[]float64{0.966, 0.886, 0.898, 0.827, 0.918, 0.839},
			[]float64{1.015, 0.900, 0.914, 0.939, 0.776, 0.805},
			[]float64{0.974, 0.883, 0.916, 0.848, 0.970, 0.845}),
		"9": t("9", "Table 9: Cross-A against CASS-II, Gaussian elimination", rhos, ge,
			[]float64{0.907, 1.000, 0.897, 0.903, 0.876, 0.819},
			[]float64{0.895, 0.937, 0.933, 0.926, 0.846, 0.882},
			[]float64{0.904, 0.911, 0.852, 0.913, 0.887, 0.957},
			[]float64{0.890, 0.883, 0.825, 0.821, 0.814, 0.968}),
	}
}

// PaperFFTPoints is the generator argument of the paper's FFT sizes
// (errata of shared/papers/README.md): FFT(32…256) has 223…2559 tasks.
func PaperFFTPoints() []int { return []int{32, 64, 128, 256} }

// PaperGEMatrices is the generator argument of the paper's
// Gaussian-elimination sizes (errata of shared/papers/README.md):
// GaussianElimination(24…62) has 299…1952 tasks.
func PaperGEMatrices() []int { return []int{24, 31, 44, 62} }
