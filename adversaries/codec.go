package adversaries

import (
	"encoding/json"
	"strconv"

	"schedlab/solvers/adversary"
)

// stored is an Evaluation as the store keeps it: JSON has no infinities
// and no NaN, so the two scores are strings (strconv 'g', shortest form:
// "+Inf", "NaN", and every finite value exactly).
type stored struct {
	adversary.Evaluation
	Score string `json:"score"`
	Best  string `json:"best"`
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func encodeEvaluation(e adversary.Evaluation) (json.RawMessage, error) {
	return json.Marshal(stored{Evaluation: e, Score: formatFloat(e.Score), Best: formatFloat(e.Best)})
}

func decodeEvaluation(raw []byte) (adversary.Evaluation, error) {
	var s stored
	if err := json.Unmarshal(raw, &s); err != nil {
		return adversary.Evaluation{}, err
	}
	e := s.Evaluation
	var err error
	if e.Score, err = strconv.ParseFloat(s.Score, 64); err != nil {
		return e, err
	}
	if e.Best, err = strconv.ParseFloat(s.Best, 64); err != nil {
		return e, err
	}
	return e, nil
}
