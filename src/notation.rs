//! Position text (SPEC.md): `BOARD SIDE [SUPPLIES [TABOO]]`, read and written.

use std::fmt;

use crate::board::{Cell, Side};
use crate::position::{Occupant, Position};
use crate::variant::{PositionField, Ruleset};

/// Which field of position text a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The board field.
    Board,
    /// The side to move.
    Side,
    /// The stone supplies.
    Supplies,
    /// The taboo cell.
    Taboo,
    /// The castling rights.
    Castling,
    /// The en-passant cell.
    EnPassant,
    /// A move counter.
    Counter,
    /// Anything after the last field.
    Extra,
    /// The position as a whole: readable, but not one the game can reach or play from.
    Legality,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Board => "board field",
            Field::Side => "side field",
            Field::Supplies => "supplies field",
            Field::Taboo => "taboo field",
            Field::Castling => "castling field",
            Field::EnPassant => "en-passant field",
            Field::Counter => "move counter field",
            Field::Extra => "position text",
            Field::Legality => "position",
        })
    }
}

/// Position text that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError {
    /// The field.
    pub field: Field,
    /// What is wrong.
    pub message: String,
    /// Byte range in the text, when known.
    pub range: Option<(usize, usize)>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for PositionError {}

fn fail<T>(
    field: Field,
    range: (usize, usize),
    message: impl Into<String>,
) -> Result<T, PositionError> {
    Err(PositionError {
        field,
        message: message.into(),
        range: Some(range),
    })
}

/// Longest position text read (far more than any board of 65,536 cells needs).
pub const MAX_POSITION_TEXT: usize = 1 << 20;

/// Reads position text and checks that the position can be played (see
/// [`crate::game::check_position`]).
pub fn parse_position(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    let pos = read_position(rules, text)?;
    crate::game::check_position(rules, &pos).map_err(|message| PositionError {
        field: Field::Legality,
        message,
        range: Some((0, text.len())),
    })?;
    Ok(pos)
}

/// Reads position text without checking that the position can be played.
fn read_position(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    if text.len() > MAX_POSITION_TEXT {
        return Err(PositionError {
            field: Field::Board,
            message: format!(
                "the position text is {} bytes long; the limit is {MAX_POSITION_TEXT}",
                text.len()
            ),
            range: None,
        });
    }
    let topo = &rules.topo;
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for part in text.split(' ') {
        if !part.trim().is_empty() {
            let lead = part.len() - part.trim_start().len();
            fields.push((at + lead, part.trim()));
        }
        at += part.len() + 1;
    }
    let supplies = rules.stones.iter().map(|s| s.supply).collect::<Vec<_>>();
    let mut pos = Position::empty(topo.len(), supplies);
    let Some(&(board_at, board)) = fields.first() else {
        return Err(PositionError {
            field: Field::Board,
            message: "the position text is empty".into(),
            range: None,
        });
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != topo.ranks() {
        return fail(
            Field::Board,
            (board_at, board_at + board.len()),
            format!(
                "{} ranks given, the board has {}",
                ranks.len(),
                topo.ranks()
            ),
        );
    }
    let mut off = board_at;
    for (i, rank_text) in ranks.iter().enumerate() {
        let r = topo.ranks() - 1 - i;
        let cells: Vec<Cell> = topo.rank_cells(r).collect();
        let mut k = 0usize;
        let bytes = rank_text.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let ch = rank_text[j..].chars().next().unwrap_or(' ');
            if ch.is_ascii_digit() {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let n: usize = rank_text[start..j].parse().unwrap_or(usize::MAX);
                if n == 0 {
                    return fail(
                        Field::Board,
                        (off + start, off + j),
                        format!("rank {}: an empty run of 0 cells", r + 1),
                    );
                }
                k = k.saturating_add(n);
                if k > cells.len() {
                    return fail(
                        Field::Board,
                        (off + start, off + j),
                        format!(
                            "rank {}: `{}` runs past the end of the rank, which has {} cells",
                            r + 1,
                            &rank_text[start..j],
                            cells.len()
                        ),
                    );
                }
            } else {
                let occ = if let Some(p) = rules
                    .pieces
                    .iter()
                    .position(|p| p.letter == ch.to_ascii_uppercase())
                {
                    Occupant::piece(
                        if ch.is_ascii_uppercase() {
                            Side::White
                        } else {
                            Side::Black
                        },
                        p as u8,
                    )
                } else if let Some(s) = rules.stones.iter().position(|s| s.symbol == ch) {
                    Occupant::stone(s as u8)
                } else {
                    return fail(
                        Field::Board,
                        (off + j, off + j + ch.len_utf8()),
                        format!(
                            "rank {}: `{ch}` is neither a piece letter nor a stone symbol of {}",
                            r + 1,
                            rules.name
                        ),
                    );
                };
                if let Some(&c) = cells.get(k) {
                    pos.cells[c as usize] = occ;
                }
                k = k.saturating_add(1);
                j += ch.len_utf8();
            }
        }
        if k != cells.len() {
            return fail(
                Field::Board,
                (off, off + rank_text.len()),
                format!(
                    "rank {} describes {k} cells, the board has {} on that rank",
                    r + 1,
                    cells.len()
                ),
            );
        }
        off += rank_text.len() + 1;
    }
    match fields.get(1) {
        None => {}
        Some(&(a, "w")) | Some(&(a, "W")) => {
            let _ = a;
            pos.side = Side::White
        }
        Some(&(_, "b")) | Some(&(_, "B")) => pos.side = Side::Black,
        Some(&(a, s)) => {
            return fail(
                Field::Side,
                (a, a + s.len()),
                format!("`{s}` is not a side: write `w` or `b`"),
            );
        }
    }
    let names = if rules.fields.is_empty() {
        Vec::new()
    } else {
        rules.fields.clone()
    };
    for (n, field) in names.iter().enumerate() {
        let Some(&(a, s)) = fields.get(2 + n) else {
            break;
        };
        let span = (a, a + s.len());
        match field {
            PositionField::Supplies => {
                if s != "-" {
                    pos.supplies = parse_supplies(rules, s, a)?;
                }
            }
            PositionField::Taboo => {
                if s != "-" {
                    match topo.parse_cell(s) {
                        Ok(c) if pos.at(c).is_empty() => pos.taboo = Some(c),
                        Ok(_) => {
                            return fail(
                                Field::Taboo,
                                span,
                                format!("the taboo cell {s} is not empty"),
                            );
                        }
                        Err(e) => return fail(Field::Taboo, span, e.to_string()),
                    }
                }
            }
            PositionField::Castling => {
                if s != "-" {
                    for ch in s.chars() {
                        match rules.castlings.iter().position(|c| c.letter == ch) {
                            Some(i) => pos.castling |= 1 << i,
                            None => {
                                let known: String =
                                    rules.castlings.iter().map(|c| c.letter).collect();
                                return fail(
                                    Field::Castling,
                                    span,
                                    format!(
                                        "`{ch}` is not a castling right of {} (known: {known})",
                                        rules.name
                                    ),
                                );
                            }
                        }
                    }
                }
            }
            PositionField::EnPassant => {
                if s != "-" {
                    match topo.parse_cell(s) {
                        Ok(c) => pos.ep = Some(c),
                        Err(e) => return fail(Field::EnPassant, span, e.to_string()),
                    }
                }
            }
            PositionField::Halfmove | PositionField::Fullmove => {
                let v: u32 = s.parse().map_err(|_| PositionError {
                    field: Field::Counter,
                    message: format!("`{s}` is not a number from 0 to {}", u32::MAX),
                    range: Some(span),
                })?;
                if *field == PositionField::Halfmove {
                    pos.halfmove = v;
                } else {
                    pos.fullmove = v.max(1);
                }
            }
        }
    }
    if let Some(&(a, s)) = fields.get(2 + names.len()) {
        return fail(
            Field::Extra,
            (a, a + s.len()),
            format!("unexpected `{s}` after the last field of {}", rules.name),
        );
    }
    Ok(pos)
}

fn parse_supplies(rules: &Ruleset, text: &str, at: usize) -> Result<[Vec<u32>; 2], PositionError> {
    let Some((w, b)) = text.split_once('/') else {
        return fail(
            Field::Supplies,
            (at, at + text.len()),
            "write WHITE/BLACK, e.g. ^10~1#10%1@3/^10~1#10%1@3",
        );
    };
    let one = |s: &str, base: usize| -> Result<Vec<u32>, PositionError> {
        let mut out = vec![0u32; rules.stones.len()];
        let mut seen = vec![false; rules.stones.len()];
        let mut chars = s.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            let Some(k) = rules.stones.iter().position(|st| st.symbol == ch) else {
                return fail(
                    Field::Supplies,
                    (base + i, base + i + ch.len_utf8()),
                    format!("`{ch}` is not a stone symbol of {}", rules.name),
                );
            };
            if seen[k] {
                return fail(
                    Field::Supplies,
                    (base + i, base + i + 1),
                    format!("`{ch}` is given twice"),
                );
            }
            seen[k] = true;
            let mut n = String::new();
            while let Some(&(_, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                n.push(d);
                chars.next();
            }
            out[k] = match n.parse::<u32>() {
                Ok(v) => v,
                _ => {
                    return fail(
                        Field::Supplies,
                        (base + i, base + i + 1 + n.len()),
                        format!("`{ch}` needs a count from 0 to {}", u32::MAX),
                    );
                }
            };
        }
        Ok(out)
    };
    Ok([one(w, at)?, one(b, at + w.len() + 1)?])
}

/// Writes position text. Supplies and taboo are written only when they differ from the
/// defaults (full supplies, no taboo), so the start position reads as in SPEC.md.
pub fn write_position(rules: &Ruleset, pos: &Position) -> String {
    let topo = &rules.topo;
    let mut out = String::new();
    for r in (0..topo.ranks()).rev() {
        let mut run = 0;
        for c in topo.rank_cells(r) {
            let o = pos.at(c);
            if o.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(occupant_char(rules, o));
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(if pos.side == Side::White { 'w' } else { 'b' });
    if rules.fields.contains(&PositionField::Supplies) {
        // Supplies and taboo only when they differ from the defaults (SPEC's start position).
        let full: Vec<u32> = rules.stones.iter().map(|s| s.supply).collect();
        let default = pos.supplies[0] == full && pos.supplies[1] == full;
        if default && pos.taboo.is_none() {
            return out;
        }
    }
    for field in &rules.fields {
        out.push(' ');
        match field {
            PositionField::Supplies => {
                for (i, side) in pos.supplies.iter().enumerate() {
                    if i == 1 {
                        out.push('/');
                    }
                    for (k, n) in side.iter().enumerate() {
                        out.push(rules.stones[k].symbol);
                        out.push_str(&n.to_string());
                    }
                }
            }
            PositionField::Taboo => {
                out.push_str(&pos.taboo.map_or("-".to_string(), |t| topo.name(t)))
            }
            PositionField::Castling => {
                let rights: String = rules
                    .castlings
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| pos.castling & (1 << i) != 0)
                    .map(|(_, c)| c.letter)
                    .collect();
                out.push_str(if rights.is_empty() { "-" } else { &rights });
            }
            PositionField::EnPassant => {
                out.push_str(&pos.ep.map_or("-".to_string(), |t| topo.name(t)))
            }
            PositionField::Halfmove => out.push_str(&pos.halfmove.to_string()),
            PositionField::Fullmove => out.push_str(&pos.fullmove.to_string()),
        }
    }
    out
}

/// The character of an occupant in position text (`.` for empty).
pub fn occupant_char(rules: &Ruleset, o: Occupant) -> char {
    if let Some((side, k)) = o.as_piece() {
        let l = rules.pieces[k as usize].letter;
        if side == Side::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    } else if let Some(k) = o.as_stone() {
        rules.stones[k as usize].symbol
    } else {
        '.'
    }
}

// ---------------------------------------------------------------------------------------------
// Move text.
//
// FROM, then for a movement `-TO` (or `xTO` when the piece captures on TO) and `xCELL` for every
// other captured cell in board order; then each placed stone as its symbol and cell (`^E5`), or
// `!CELL` for a removed stone. A stone placed without moving follows FROM directly: `F3^F5`.

use crate::game::{Action, Game, Turn};

/// The canonical text of a turn.
pub fn turn_text(rules: &Ruleset, t: &Turn) -> String {
    let name = |c: Cell| rules.topo.name(c);
    let mut s = name(t.from);
    if let Some(to) = t.to {
        s.push(if t.captures.contains(&to) { 'x' } else { '-' });
        s.push_str(&name(to));
        for &c in t.captures.iter().filter(|&&c| c != to) {
            s.push('x');
            s.push_str(&name(c));
        }
        if let Some(k) = t.promote {
            s.push('=');
            s.push(rules.pieces[k as usize].letter);
        }
    }
    match &t.action {
        Action::None => {}
        Action::Remove(c) => {
            s.push('!');
            s.push_str(&name(*c));
        }
        Action::Place(list) => {
            for &(k, c) in list {
                s.push(rules.stones[k as usize].symbol);
                s.push_str(&name(c));
            }
        }
    }
    s
}

/// Move text that is not a legal turn, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// The text given.
    pub text: String,
    /// Why it is not a legal turn.
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

struct Spec {
    promote: Option<u8>,
    from: Cell,
    to: Option<(Cell, bool)>,
    caps: Vec<Cell>,
    place: Vec<(u8, Cell)>,
    remove: Option<Cell>,
}

fn read_cell(rules: &Ruleset, text: &str, i: &mut usize) -> Result<Cell, String> {
    let b = text.as_bytes();
    let start = *i;
    while *i < b.len() && b[*i].is_ascii_alphabetic() {
        *i += 1;
    }
    while *i < b.len() && b[*i].is_ascii_digit() {
        *i += 1;
    }
    let name = &text[start..*i];
    if name.is_empty() {
        return Err(format!("expected a cell at position {}", start + 1));
    }
    rules.topo.parse_cell(name).map_err(|e| e.to_string())
}

fn read_spec(rules: &Ruleset, text: &str) -> Result<Spec, String> {
    let mut i = 0;
    let from = read_cell(rules, text, &mut i)?;
    let mut spec = Spec {
        promote: None,
        from,
        to: None,
        caps: Vec::new(),
        place: Vec::new(),
        remove: None,
    };
    let b = text.as_bytes();
    if i < b.len() && (b[i] == b'-' || b[i] == b'x' || b[i] == b'X') {
        let capture = b[i] != b'-';
        i += 1;
        spec.to = Some((read_cell(rules, text, &mut i)?, capture));
        while i < b.len() && (b[i] == b'x' || b[i] == b'X') {
            i += 1;
            spec.caps.push(read_cell(rules, text, &mut i)?);
        }
        if i < b.len() && b[i] == b'=' {
            let ch = text[i + 1..].chars().next().unwrap_or(' ');
            let Some(k) = rules
                .pieces
                .iter()
                .position(|p| p.letter.eq_ignore_ascii_case(&ch))
            else {
                return Err(format!("`={ch}`: not a piece letter of {}", rules.name));
            };
            spec.promote = Some(k as u8);
            i += 1 + ch.len_utf8();
        }
    }
    while i < b.len() {
        let ch = text[i..].chars().next().unwrap_or(' ');
        i += ch.len_utf8();
        if ch == '!' {
            if spec.remove.is_some() || !spec.place.is_empty() {
                return Err("a turn removes one stone instead of placing, not as well".into());
            }
            spec.remove = Some(read_cell(rules, text, &mut i)?);
        } else if let Some(k) = rules.stones.iter().position(|s| s.symbol == ch) {
            if spec.remove.is_some() {
                return Err("a turn removes one stone instead of placing, not as well".into());
            }
            spec.place.push((k as u8, read_cell(rules, text, &mut i)?));
        } else {
            let symbols: String = rules.stones.iter().map(|s| s.symbol).collect();
            return Err(format!(
                "unexpected `{ch}` at position {}: after the cells come stone symbols ({symbols}) with a cell, or `!` and a cell",
                i
            ));
        }
    }
    Ok(spec)
}

/// Reads move text as a legal turn of the game's position, or says why it is not one.
pub fn parse_turn(game: &mut Game<'_>, text: &str) -> Result<Turn, MoveError> {
    let rules = game.rules;
    let fail = |reason: String| MoveError {
        text: text.to_string(),
        reason,
    };
    let t = text.trim();
    let spec = read_spec(rules, t).map_err(fail)?;
    let turns = game
        .legal_turns()
        .map_err(|o| fail(format!("the game is over ({o})")))?;
    let mut caps = spec.caps.clone();
    if let Some((to, true)) = spec.to {
        caps.push(to);
    }
    caps.sort_unstable();
    let mut place = spec.place.clone();
    place.sort_by_key(|&(k, c)| (c, k));
    let action = match (spec.remove, place.is_empty()) {
        (Some(c), _) => Action::Remove(c),
        (None, true) => Action::None,
        (None, false) => Action::Place(place),
    };
    let wanted = |u: &Turn| {
        u.from == spec.from
            && u.to == spec.to.map(|(c, _)| c)
            && u.captures == caps
            && u.action == action
            && u.promote == spec.promote
    };
    if let Some(u) = turns.iter().find(|u| wanted(u)) {
        return Ok(u.clone());
    }
    Err(fail(explain(game, &turns, &spec, &caps)))
}

fn explain(game: &mut Game<'_>, turns: &[Turn], spec: &Spec, caps: &[Cell]) -> String {
    let rules = game.rules;
    let pos = &game.pos;
    let name = |c: Cell| rules.topo.name(c);
    let Some((side, kind)) = pos.at(spec.from).as_piece() else {
        return format!("no piece stands on {}", name(spec.from));
    };
    let piece = &rules.pieces[kind as usize];
    if side != pos.side {
        return format!(
            "the {} on {} is {}'s, and it is {}'s turn",
            piece.name,
            name(spec.from),
            side,
            pos.side
        );
    }
    let of_piece: Vec<&Turn> = turns.iter().filter(|u| u.from == spec.from).collect();
    if let Some((to, _)) = spec.to {
        let same_dest: Vec<&Turn> = of_piece
            .iter()
            .copied()
            .filter(|u| u.to == Some(to))
            .collect();
        if same_dest.is_empty() {
            return format!(
                "{} to {} is not a move of the {} on {}",
                name(spec.from),
                name(to),
                piece.name,
                name(spec.from)
            );
        }
        if !same_dest.iter().any(|u| u.captures == caps) {
            let mut ways: Vec<String> = same_dest
                .iter()
                .map(|u| {
                    turn_text(
                        rules,
                        &Turn {
                            action: Action::None,
                            ..(*u).clone()
                        },
                    )
                })
                .collect();
            ways.sort();
            ways.dedup();
            return format!(
                "the {} reaching {} does not capture that; it can be written {}",
                piece.name,
                name(to),
                ways.join(" or ")
            );
        }
    } else if spec.place.is_empty() && spec.remove.is_none() {
        return "a turn moves a piece or places a stone; passing is not a turn".into();
    }
    if !spec.place.is_empty() {
        if spec.place.len() > piece.stones_per_turn as usize {
            return format!(
                "the {} places at most {} stone{} per turn",
                piece.name,
                piece.stones_per_turn,
                if piece.stones_per_turn == 1 { "" } else { "s" }
            );
        }
        if spec.place.len() == 2 && spec.place[0].1 == spec.place[1].1 {
            return "two stones go on two different cells".into();
        }
        let mut need = vec![0u32; rules.stones.len()];
        for &(k, _) in &spec.place {
            need[k as usize] += 1;
        }
        for (k, &n) in need.iter().enumerate() {
            if n > 0 && pos.supplies[side.index()][k] < n {
                return format!("{} has no {} left", side, rules.stones[k].name);
            }
        }
        // The range the stones are placed from: after the movement, if any.
        let mut scratch = pos.clone();
        let at = match spec.to {
            Some((to, _)) => {
                let dest = turns
                    .iter()
                    .find(|u| u.from == spec.from && u.to == Some(to) && u.captures == caps)
                    .map_or(crate::vm::StoneEffect::None, |u| u.dest);
                crate::game::apply_movement(&mut scratch, spec.from, to, caps, dest);
                to
            }
            None => spec.from,
        };
        let range: Vec<Cell> = crate::vm::Machine::new()
            .range(rules, &scratch, at)
            .to_vec();
        for &(k, c) in &spec.place {
            let stone = &rules.stones[k as usize].name;
            if !range.contains(&c) {
                return format!(
                    "{} is not in the {}'s range from {}",
                    name(c),
                    piece.name,
                    name(at)
                );
            }
            if crate::game::placement(rules, &scratch, side, kind, k, c).is_some() {
                continue;
            }
            let occ = scratch.at(c);
            if Some(c) == pos.taboo && occ.is_empty() {
                return format!(
                    "{} was emptied by an explosion and may not receive a stone this turn",
                    name(c)
                );
            }
            if occ.is_empty() || occ.as_piece().is_some_and(|(s, _)| s != side) {
                for &(w, r) in &rules.placement.forbidden {
                    let rs = if w == crate::variant::Whose::Own {
                        side
                    } else {
                        side.opponent()
                    };
                    if rules.regions[r as usize].cells[rs.index()].contains(c) {
                        let whose = if w == crate::variant::Whose::Own {
                            "your own"
                        } else {
                            "the opponent's"
                        };
                        return format!(
                            "{} is in {whose} {}: no stone may go there",
                            name(c),
                            rules.regions[r as usize].id
                        );
                    }
                }
                if !rules.stone_allowed(side, k, c) {
                    return format!("a {stone} may not go on {}", name(c));
                }
            }
            return match occ.as_piece() {
                Some((s, pk)) if s != side => format!(
                    "a {stone} placed on the {} on {} captures nothing here",
                    rules.pieces[pk as usize].name,
                    name(c)
                ),
                Some(_) => format!("{} holds your own piece", name(c)),
                None if occ.as_stone().is_some() => {
                    format!("a {stone} cannot blow up the stone on {}", name(c))
                }
                None => format!("a {stone} may not go on {}", name(c)),
            };
        }
        if spec.place.len() == 2 {
            return "these two stones may not go together (at most one explosion per turn)".into();
        }
        return "not a legal placement".into();
    }
    if let Some(c) = spec.remove {
        if piece.removes.is_empty() {
            return format!("the {} cannot remove stones", piece.name);
        }
        if !pos
            .at(c)
            .as_stone()
            .is_some_and(|s| piece.removes.contains(&s))
        {
            return format!(
                "there is no stone on {} that the {} may remove",
                name(c),
                piece.name
            );
        }
        return format!("{} is not in the {}'s range", name(c), piece.name);
    }
    "not a legal turn".into()
}
