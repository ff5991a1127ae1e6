//! Move text, read and written.
//!
//! FROM, then for a movement `-TO` (or `xTO` when the piece captures on TO) and `xCELL` for every
//! other captured cell in board order; then each placed stone as its symbol and cell (`^E5`), or
//! `!CELL` for a removed stone. A stone placed without moving follows FROM directly: `F3^F5`.

use std::fmt;

use crate::board::Cell;
use crate::play::{Action, Game, Turn};
use crate::rules::Ruleset;

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
        .map_err(|o| fail(format!("the game is over: {}", o.text(rules))))?;
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
                let movement = Turn {
                    from: spec.from,
                    to: Some(to),
                    captures: caps.to_vec(),
                    dest,
                    action: Action::None,
                    promote: None,
                    castle: None,
                };
                crate::play::move_pieces(rules, &mut scratch, &movement.view(), &mut |_, _, _| {});
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
            if crate::play::placement(rules, &scratch, side, kind, k, c).is_some() {
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
                    let rs = if w == crate::rules::Whose::Own {
                        side
                    } else {
                        side.opponent()
                    };
                    if rules.regions[r as usize].cells[rs.index()].contains(c) {
                        let whose = if w == crate::rules::Whose::Own {
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
