//! Castling in a variant file: fixed castlings with their cells declared, and free ones whose
//! cells are derived from the position (Chess960).

use super::words::{CastlingSide, Rights};
use super::{
    Castling, CastlingDef, Cell, Code, Flank, Loader, MAX_CASTLINGS, PieceKindId, Side, Spanned,
    Topology, VariantDef, span_of,
};

impl Loader<'_> {
    pub(super) fn castlings(&mut self, def: &VariantDef, t: &Topology) -> Vec<Castling> {
        let mut out: Vec<Castling> = Vec::new();
        let mut next_right = 0usize;
        let free_any = def.castling.iter().any(|c| c.rights.is_some());
        for c in &def.castling {
            if next_right >= MAX_CASTLINGS {
                self.problem(
                    Code::Castling,
                    span_of(&c.side),
                    format!("more than {MAX_CASTLINGS} castling rights"),
                    "one too many",
                    "a variant may declare at most 32 castling rights (they are bits of one word)",
                );
                break;
            }
            let Some(side) = self.word::<CastlingSide>(&c.side).map(Side::from) else {
                continue;
            };
            if free_any && c.rights.is_none() {
                self.problem(
                    Code::Castling,
                    span_of(&c.side),
                    "a castling with fixed cells beside castlings whose rights name files",
                    "fixed cells",
                    "a variant's castlings are either all declared cell by cell or all free (`rights = \"files\"`)",
                );
                continue;
            }
            let before = out.len();
            if let Some(r) = &c.rights {
                if let Some(Rights::Files) = self.word::<Rights>(r) {
                    self.free_castling(def, c, side, t, &mut next_right, &mut out);
                }
            } else {
                self.fixed_castling(c, side, t, &mut next_right, &mut out);
            }
            let king_kind = c
                .king_kind
                .as_ref()
                .and_then(|k| self.one_piece_kind(def, k));
            for cst in &mut out[before..] {
                cst.king_kind = king_kind;
            }
        }
        out
    }

    /// The piece kind one name names, or reports it.
    fn one_piece_kind(&mut self, def: &VariantDef, k: &Spanned<String>) -> Option<PieceKindId> {
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        self.kind_list(std::slice::from_ref(k), &ids, "piece")
            .first()
            .map(|&i| PieceKindId::new(i))
    }

    /// Names a cell of a castling, or reports it.
    pub(super) fn castling_cell(
        &mut self,
        t: &Topology,
        s: &Spanned<String>,
        text: &str,
    ) -> Option<Cell> {
        match t.parse_cell(text.trim()) {
            Ok(x) => Some(x),
            Err(e) => {
                self.problem(
                    Code::Castling,
                    span_of(s),
                    e.to_string(),
                    "not a cell",
                    "name a cell of the board",
                );
                None
            }
        }
    }

    /// A castling declared cell by cell.
    pub(super) fn fixed_castling(
        &mut self,
        c: &CastlingDef,
        side: Side,
        t: &Topology,
        next_right: &mut usize,
        out: &mut Vec<Castling>,
    ) {
        if !self.fixed_keys_complete(c) {
            return;
        }
        let (Some(letter), Some(king), Some(king_to), Some(empty), Some(safe)) =
            (&c.letter, &c.king, &c.king_to, &c.empty, &c.safe)
        else {
            return;
        };
        let k = (
            self.castling_cell(t, king, king.get_ref()),
            self.castling_cell(t, king_to, king_to.get_ref()),
        );
        let (partners, bad) = self.castling_partners(c, t);
        if partners.is_empty() && !bad {
            self.problem(
                Code::Castling,
                span_of(king),
                "a castling without a partner",
                "the royal piece alone",
                "give `rook` and `rook-to`, or `partners = [\"FROM-TO\", …]`",
            );
        }
        let (Some(k0), Some(k1)) = k else {
            return;
        };
        if bad || partners.is_empty() {
            return;
        }
        let empty = self.cell_list(t, empty).iter().collect();
        let safe = self.cell_list(t, safe).iter().collect();
        out.push(Castling {
            side,
            letter: letter.get_ref().chars().next().unwrap_or('?'),
            king: (k0, k1),
            partners,
            empty,
            safe,
            right: u8::try_from(*next_right).unwrap_or(u8::MAX),
            free: None,
            partner_kind: None,
            king_kind: None,
            stands: Vec::new(),
            stand_set: 0,
        });
        *next_right += 1;
    }

    /// Whether a castling declared cell by cell has its keys, and none of a free castling's.
    fn fixed_keys_complete(&mut self, c: &CastlingDef) -> bool {
        let mut missing = Vec::new();
        for (name, v) in [
            ("letter", &c.letter),
            ("king", &c.king),
            ("king-to", &c.king_to),
            ("empty", &c.empty),
            ("safe", &c.safe),
        ] {
            if v.is_none() {
                missing.push(name);
            }
        }
        for (name, v) in [
            ("partners-on", &c.partners_on),
            ("partner-kind", &c.partner_kind),
            ("high-side-to", &c.high_side_to),
            ("low-side-to", &c.low_side_to),
        ] {
            if let Some(v) = v {
                self.problem(
                    Code::Castling,
                    span_of(v),
                    format!("`{name}` belongs to a free castling"),
                    "without `rights = \"files\"`",
                    "add `rights = \"files\"` for a Chess960-like castling, or remove this key",
                );
            }
        }
        if !missing.is_empty() {
            self.problem(
                Code::Castling,
                span_of(&c.side),
                format!("a castling without {}", missing.join(", ")),
                "incomplete",
                "a castling declared cell by cell needs letter, king, king-to, empty and safe (or `rights = \"files\"` for a free castling)",
            );
            return false;
        }
        true
    }

    /// A fixed castling's partners (`rook` and `rook-to`, `partners`) and whether any was
    /// written wrong.
    fn castling_partners(&mut self, c: &CastlingDef, t: &Topology) -> (Vec<(Cell, Cell)>, bool) {
        let mut partners = Vec::new();
        let mut bad = false;
        match (&c.rook, &c.rook_to) {
            (Some(r), Some(rt)) => match (
                self.castling_cell(t, r, r.get_ref()),
                self.castling_cell(t, rt, rt.get_ref()),
            ) {
                (Some(a), Some(b)) => partners.push((a, b)),
                _ => bad = true,
            },
            (None, None) => {}
            (Some(s), None) | (None, Some(s)) => {
                self.problem(
                    Code::Castling,
                    span_of(s),
                    "`rook` and `rook-to` go together",
                    "half a partner",
                    "give both the partner's cell and its destination, or list it in `partners` as \"FROM-TO\"",
                );
                bad = true;
            }
        }
        for p in &c.partners {
            match p.get_ref().split_once('-') {
                Some((a, b)) => match (self.castling_cell(t, p, a), self.castling_cell(t, p, b)) {
                    (Some(a), Some(b)) => partners.push((a, b)),
                    _ => bad = true,
                },
                None => {
                    self.problem(
                        Code::Castling,
                        span_of(p),
                        format!("`{}` is not a partner's move", p.get_ref()),
                        "not FROM-TO",
                        "write the partner's cell and destination, e.g. \"a1-c1\"",
                    );
                    bad = true;
                }
            }
        }
        (partners, bad)
    }

    /// A free castling (`rights = "files"`): one right per cell a partner may start from,
    /// named by its file; a castling for each flank of the king it may stand on.
    pub(super) fn free_castling(
        &mut self,
        def: &VariantDef,
        c: &CastlingDef,
        side: Side,
        t: &Topology,
        next_right: &mut usize,
        out: &mut Vec<Castling>,
    ) {
        // Only called for a castling with `rights`.
        let Some(rights) = &c.rights else { return };
        self.no_fixed_keys(c);
        let partner_kind = c
            .partner_kind
            .as_ref()
            .and_then(|k| self.one_piece_kind(def, k));
        let Some(on) = &c.partners_on else {
            self.problem(
                Code::Castling,
                span_of(rights),
                "a free castling without `partners-on`",
                "where may partners stand?",
                "name the cells a partner may start from, e.g. partners-on = \"a1-h1\"",
            );
            return;
        };
        let cells: Vec<Cell> = self.cell_list(t, on).iter().collect();
        let high = self.free_destinations(c.high_side_to.as_ref(), "high-side-to", rights, t);
        let low = self.free_destinations(c.low_side_to.as_ref(), "low-side-to", rights, t);
        let (Some(high), Some(low)) = (high, low) else {
            return;
        };
        for cell in cells {
            if *next_right >= MAX_CASTLINGS {
                self.problem(
                    Code::Castling,
                    span_of(on),
                    format!("more than {MAX_CASTLINGS} castling rights"),
                    "too many cells",
                    "a variant may declare at most 32 castling rights (they are bits of one word)",
                );
                return;
            }
            let label = t.file_label(t.layout(cell).0);
            let letter = label.chars().next().unwrap_or('?');
            let letter = if side == Side::White {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            for (flank, (king_to, partner_to)) in [(Flank::High, high), (Flank::Low, low)] {
                let castling = Castling {
                    side,
                    letter,
                    king: (cell, king_to),
                    partners: vec![(cell, partner_to)],
                    empty: Vec::new(),
                    safe: Vec::new(),
                    right: u8::try_from(*next_right).unwrap_or(u8::MAX),
                    free: Some(flank),
                    partner_kind,
                    king_kind: None,
                    stands: Vec::new(),
                    stand_set: 0,
                };
                out.push(castling.with_stands(t));
            }
            *next_right += 1;
        }
    }
    /// Reports each key of a castling declared cell by cell given to a free castling.
    fn no_fixed_keys(&mut self, c: &CastlingDef) {
        for (name, v) in [
            ("letter", &c.letter),
            ("king", &c.king),
            ("king-to", &c.king_to),
            ("rook", &c.rook),
            ("rook-to", &c.rook_to),
            ("empty", &c.empty),
            ("safe", &c.safe),
        ] {
            if let Some(v) = v {
                self.problem(
                    Code::Castling,
                    span_of(v),
                    format!("`{name}` does not go with `rights = \"files\"`"),
                    "fixed cell",
                    "a free castling finds its king and partner in the position: give `partners-on`, `high-side-to` and `low-side-to`",
                );
            }
        }
        if let Some(p) = c.partners.first() {
            self.problem(
                Code::Castling,
                span_of(p),
                "`partners` does not go with `rights = \"files\"`",
                "fixed partner",
                "a free castling has one partner, found on one of the `partners-on` cells",
            );
        }
    }

    /// A free castling's `high-side-to` or `low-side-to`: the king's and the partner's
    /// destinations.
    fn free_destinations(
        &mut self,
        v: Option<&Spanned<String>>,
        name: &str,
        rights: &Spanned<String>,
        t: &Topology,
    ) -> Option<(Cell, Cell)> {
        let Some(v) = v else {
            self.problem(
                Code::Castling,
                span_of(rights),
                format!("a free castling without `{name}`"),
                "missing",
                format!("give the king's and the partner's destinations, e.g. {name} = \"g1 f1\""),
            );
            return None;
        };
        let parts: Vec<&str> = v.get_ref().split_whitespace().collect();
        if parts.len() != 2 {
            self.problem(
                Code::Castling,
                span_of(v),
                format!("`{}` is not two cells", v.get_ref()),
                "KING-TO PARTNER-TO",
                "write the king's destination, then the partner's, e.g. \"g1 f1\"",
            );
            return None;
        }
        Some((
            self.castling_cell(t, v, parts[0])?,
            self.castling_cell(t, v, parts[1])?,
        ))
    }
}
