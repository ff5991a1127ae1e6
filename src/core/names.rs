//! "Did you mean": the one place that finds a close name among the known ones, used by every
//! message about an unknown name (regions, pieces, stones, modifiers, variants, keys).

/// The known name closest to `word`, if one is close: at most two edits away, or one name
/// containing the other. The first such name in `candidates`' order wins a tie.
pub fn closest<'n>(word: &str, candidates: impl IntoIterator<Item = &'n str>) -> Option<&'n str> {
    let word_lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (edit_distance(&c.to_ascii_lowercase(), &word_lower), c))
        .filter(|&(d, c)| {
            d <= 2 || (word.len() >= 3 && (c.contains(word) || word.contains(c) && c.len() >= 3))
        })
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// A help line for an unknown name: `did you mean X? known: A, B, C` (or only the list).
pub fn suggest<'n>(word: &str, candidates: impl IntoIterator<Item = &'n str>) -> String {
    let all: Vec<&str> = candidates.into_iter().collect();
    match closest(word, all.iter().copied()) {
        Some(c) => format!("did you mean `{c}`? known: {}", all.join(", ")),
        None => format!("known: {}", all.join(", ")),
    }
}

/// Edit distance: the fewest single-character insertions, deletions, substitutions and swaps
/// of two neighbours that turn `a` into `b` (`laep` is one swap from `leap`).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between the first i characters of a and the first j of b.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("foward", "forward"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("laep", "leap"), 1);
        assert_eq!(edit_distance("step", "leap"), 3);
    }

    #[test]
    fn the_closest_name_wins_and_far_names_are_not_offered() {
        let known = ["leap", "ride", "step", "jump"];
        assert_eq!(closest("laep", known), Some("leap"));
        assert_eq!(closest("rdie", known), Some("ride"));
        assert_eq!(closest("teleport", known), None);
        assert_eq!(closest("Chesss", ["chess", "chess960"]), Some("chess"));
        assert_eq!(
            suggest("quen", ["king", "queen"]),
            "did you mean `queen`? known: king, queen"
        );
    }
}
