//! Position text, read and written: `BOARD SIDE` and the fields the variant declares
//! (supplies, taboo cell, castling rights, en-passant cell, counters).

use std::fmt;

use crate::board::Cell;
use crate::core::{BySide, Side};
use crate::core::{PieceKindId, StoneKindId};
use crate::position::{Occupant, Position};
use crate::rules::{LetterMark, PositionField, Ruleset};

/// Which field of position text a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The board field.
    Board,
    /// The side to move.
    Side,
    /// The stone supplies.
    Supplies,
    /// The reserve in brackets after the board.
    Reserve,
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
            Field::Reserve => "reserve",
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
/// [`crate::play::check_position`]).
pub fn parse_position(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    let pos = read_position(rules, text)?;
    crate::play::check_position(rules, &pos).map_err(|u| PositionError {
        field: Field::Legality,
        message: u.text(rules),
        range: Some((0, text.len())),
    })?;
    Ok(pos)
}

/// The words of a text, separated by any run of white space, each with its byte offset (for
/// messages that point at one): the fields of position text, the turns of a history.
pub fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
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
    // Fields are separated by any run of white space (spaces, tabs, line ends): a position
    // pasted from elsewhere reads the same.
    let fields = words(text);
    let mut pos = Position::empty(topo.len(), rules.initial_hand());
    let Some(&(board_at, board)) = fields.first() else {
        return Err(PositionError {
            field: Field::Board,
            message: "the position text is empty".into(),
            range: None,
        });
    };
    let board = match (rules.has_reserve(), board.find('[')) {
        (true, Some(i)) => {
            read_reserve(rules, &mut pos, &board[i..], board_at + i)?;
            &board[..i]
        }
        _ => board,
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
        read_rank(rules, &mut pos, topo.ranks() - 1 - i, rank_text, off)?;
        off += rank_text.len() + 1;
    }
    if let Some(m) = must_have_changed(rules, &pos) {
        return fail(Field::Board, (board_at, board_at + board.len()), m);
    }
    match fields.get(1) {
        None => {
            return fail(
                Field::Side,
                (text.len(), text.len()),
                "the side to move is missing: write `w` or `b` after the board",
            );
        }
        Some(&(_, "w") | &(_, "W")) => pos.side = Side::White,
        Some(&(_, "b") | &(_, "B")) => pos.side = Side::Black,
        Some(&(a, s)) => {
            return fail(
                Field::Side,
                (a, a + s.len()),
                format!("`{s}` is not a side: write `w` or `b`"),
            );
        }
    }
    let names = read_fields(rules, &mut pos, &fields)?;
    if let Some(&(a, s)) = fields.get(2 + names.len()) {
        return fail(
            Field::Extra,
            (a, a + s.len()),
            format!("unexpected `{s}` after the last field of {}", rules.name),
        );
    }
    Ok(pos)
}

/// Reads rank `r` (index from 0) of the board field; `off` is where its text starts.
/// Reads `[SSJJww]`: the pieces of each side's reserve, by letter (upper case White's).
fn read_reserve(
    rules: &Ruleset,
    pos: &mut Position,
    text: &str,
    at: usize,
) -> Result<(), PositionError> {
    let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return fail(
            Field::Reserve,
            (at, at + text.len()),
            "the reserve is written in brackets right after the board, e.g. [SSJJssjj] or []",
        );
    };
    for side in Side::BOTH {
        for k in PieceKindId::all(rules.pieces.len()) {
            if rules.pieces[k.index()].reserve.is_some() {
                pos.supplies[side][rules.hand_slot(k)] = 0;
            }
        }
    }
    // `[-]`: empty hands, as Fairy-Stockfish writes shogi's start.
    let inner = if inner == "-" { "" } else { inner };
    for (i, ch) in inner.char_indices() {
        let span = (at + 1 + i, at + 1 + i + ch.len_utf8());
        let Some(k) = rules
            .kind_by_letter(ch, LetterMark::None)
            .map(PieceKindId::index)
        else {
            return fail(
                Field::Reserve,
                span,
                format!("`{ch}` is not a piece letter of {}", rules.name),
            );
        };
        if rules.pieces[k].reserve.is_none() {
            let kept: String = rules
                .pieces
                .iter()
                .filter(|p| p.reserve.is_some())
                .map(|p| p.letter)
                .collect();
            return fail(
                Field::Reserve,
                span,
                format!(
                    "the {} is not kept in the reserve of {} (kept: {kept})",
                    rules.pieces[k].name, rules.name
                ),
            );
        }
        let side = if ch.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        let n = &mut pos.supplies[side][rules.hand_slot(PieceKindId::new(k))];
        if *n >= crate::rules::MAX_RESERVE {
            return fail(
                Field::Reserve,
                span,
                format!("more than {} pieces of one kind", crate::rules::MAX_RESERVE),
            );
        }
        *n += 1;
    }
    Ok(())
}

fn read_rank(
    rules: &Ruleset,
    pos: &mut Position,
    r: usize,
    rank_text: &str,
    off: usize,
) -> Result<(), PositionError> {
    let topo = &rules.topo;
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
            if j - start > 1 && bytes[start] == b'0' {
                return fail(
                    Field::Board,
                    (off + start, off + j),
                    format!(
                        "rank {}: `{}` has a leading zero: write the run of empty cells as `{n}`",
                        r + 1,
                        &rank_text[start..j]
                    ),
                );
            }
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
            // A marked letter: `+P` (shogi's promoted pieces) or `Q~` (crazyhouse's).
            let next = rank_text[j + ch.len_utf8()..].chars().next();
            let marked = match (ch, next) {
                ('+', Some(l)) => rules.kind_by_letter(l, LetterMark::Plus).map(|k| (k, l)),
                (l, Some('~')) => rules.kind_by_letter(l, LetterMark::Tilde).map(|k| (k, l)),
                _ => None,
            };
            let side_of = |l: char| {
                if l.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                }
            };
            let occ = if let Some((k, l)) = marked {
                j += 1;
                Occupant::piece(side_of(l), k)
            } else if let Some(k) = rules.kind_by_letter(ch, LetterMark::None) {
                Occupant::piece(side_of(ch), k)
            } else if let Some(s) = rules.stones.iter().position(|s| s.symbol == ch) {
                Occupant::stone(StoneKindId::new(s))
            } else if let Some(n) = rules.neutral.as_ref().filter(|n| n.symbol == ch) {
                Occupant::neutral(n.kind)
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
                pos.put(c, occ);
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
    Ok(())
}

/// Reads the fields after BOARD SIDE that the variant declares; returns their names.
fn read_fields(
    rules: &Ruleset,
    pos: &mut Position,
    fields: &[(usize, &str)],
) -> Result<Vec<PositionField>, PositionError> {
    let topo = &rules.topo;
    let mut names = rules.fields.clone();
    // Fewer fields than declared, all of them counters: the last fields, the others left at
    // their defaults (Fairy-Stockfish writes shogi's start `[-] w 0 1`, without the castling
    // and en-passant fields it writes elsewhere).
    let given = fields.len().saturating_sub(2);
    let counters =
        |f: &PositionField| matches!(f, PositionField::Halfmove | PositionField::Fullmove);
    if given > 0
        && given < names.len()
        && fields[2..]
            .iter()
            .all(|(_, s)| s.bytes().all(|b| b.is_ascii_digit()))
        && names[names.len() - given..].iter().all(counters)
    {
        names.drain(..names.len() - given);
    }
    for (n, field) in names.iter().enumerate() {
        let Some(&(a, s)) = fields.get(2 + n) else {
            break;
        };
        let span = (a, a + s.len());
        match field {
            PositionField::Supplies => {
                if s != "-" {
                    let read = parse_supplies(rules, s, a)?;
                    for side in Side::BOTH {
                        pos.supplies[side][..read[side].len()].copy_from_slice(&read[side]);
                    }
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
                    read_castling(rules, pos, s, span)?;
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
            PositionField::Checks => pos.checks = read_checks(rules, s, span)?,
            PositionField::Halfmove | PositionField::Fullmove => {
                // Digits only: `+5` and `٣` are not counters.
                let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                let v: u32 = s
                    .parse()
                    .ok()
                    .filter(|_| digits)
                    .ok_or_else(|| PositionError {
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
    Ok(names)
}

/// Reads the checks field `W+B`: the checks each side may still give before it wins (as
/// Fairy-Stockfish writes them); returns the checks each side has given.
fn read_checks(
    rules: &Ruleset,
    s: &str,
    span: (usize, usize),
) -> Result<BySide<u32>, PositionError> {
    let n = rules.end.checks.unwrap_or(0);
    let left = |t: &str| {
        let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        t.parse::<u32>().ok().filter(|&v| digits && v <= n)
    };
    match s.split_once('+').map(|(w, b)| (left(w), left(b))) {
        Some((Some(w), Some(b))) => Ok(BySide::new(n - w, n - b)),
        _ => fail(
            Field::Counter,
            span,
            format!(
                "`{s}` is not the checks each side may still give: write W+B, each from 0 to {n} (the start: {n}+{n})"
            ),
        ),
    }
}

/// Reads the castling field `s` (not `-`) at `span` into `pos`'s rights.
fn read_castling(
    rules: &Ruleset,
    pos: &mut Position,
    s: &str,
    span: (usize, usize),
) -> Result<(), PositionError> {
    for ch in s.chars() {
        let bits = castling_letter(rules, pos, ch);
        let free_side = if ch.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        if bits == 0
            && matches!(ch, 'K' | 'Q' | 'k' | 'q')
            && rules
                .castlings
                .iter()
                .any(|c| c.free.is_some() && c.side == free_side)
        {
            let flank = if ch.eq_ignore_ascii_case(&'K') {
                "higher"
            } else {
                "lower"
            };
            return fail(
                Field::Castling,
                span,
                format!(
                    "the castling right `{ch}` names the outermost partner on the {flank} files beside the {} royal piece, and none stands there",
                    rules.side_name(free_side)
                ),
            );
        }
        if bits == 0 {
            let mut known: Vec<char> = rules.castlings.iter().map(|c| c.letter).collect();
            known.dedup();
            let known: String = known.into_iter().collect();
            return fail(
                Field::Castling,
                span,
                format!(
                    "`{ch}` is not a castling right of {} (known: {known})",
                    rules.name
                ),
            );
        }
        if let Some(missing) = castling_pieces_missing(rules, pos, ch, bits) {
            return fail(Field::Castling, span, missing);
        }
        if pos.castling & bits != 0 {
            return fail(
                Field::Castling,
                span,
                format!("the castling right `{ch}` is given twice"),
            );
        }
        pos.castling |= bits;
    }
    Ok(())
}

/// A piece standing where a change of kind that always happens must already have changed it
/// (a pawn on its last rank), in words; `None` when every piece may stand where it does. Only
/// compulsory changes on reaching a region count, and only when one of their kinds is not
/// limited by a reserve (else the reserve may have been empty when the piece arrived).
fn must_have_changed(rules: &Ruleset, pos: &Position) -> Option<String> {
    let topo = &rules.topo;
    for cell in topo.cells() {
        let Some((side, k)) = pos.at(cell).as_piece() else {
            continue;
        };
        let piece = &rules.pieces[k.index()];
        for ch in &piece.changes {
            let crate::rules::Trigger::Reach {
                region,
                enter: false,
            } = ch.on
            else {
                continue;
            };
            let unlimited = ch
                .to
                .iter()
                .any(|t| rules.pieces[t.index()].reserve.is_none());
            if !ch.optional && unlimited && rules.regions[region.index()].cells[side].contains(cell)
            {
                let to: Vec<&str> = ch
                    .to
                    .iter()
                    .map(|t| rules.pieces[t.index()].name.as_str())
                    .collect();
                return Some(format!(
                    "the {} {} on {} stands in its {} region, where it must already have become {}",
                    rules.side_name(side),
                    piece.name,
                    topo.name(cell),
                    rules.regions[region.index()].id,
                    to.join(" or ")
                ));
            }
        }
    }
    None
}

/// Why the castling right `ch` (its bits `bits`) cannot stand in this position, if it cannot:
/// each castling it names needs its royal piece on the king's cell and its partners on theirs,
/// each of the partner's kind (declared, or the kind the start position has there; else any
/// piece of the side that is not royal). A right without its pieces would move whatever stands
/// there.
fn castling_pieces_missing(rules: &Ruleset, pos: &Position, ch: char, bits: u32) -> Option<String> {
    // A right stands when one of its castlings has its pieces (the two flanks of a free
    // partner share a right).
    (0..32).filter(|b| bits & (1 << b) != 0).find_map(|b| {
        let mut why = None;
        for c in rules.castlings.iter().filter(|c| u32::from(c.right) == b) {
            match castling_missing(rules, pos, ch, c) {
                None => return None,
                Some(m) => why = why.or(Some(m)),
            }
        }
        why
    })
}

/// Why one castling of the right `ch` lacks its pieces, if it does.
fn castling_missing(
    rules: &Ruleset,
    pos: &Position,
    ch: char,
    c: &crate::rules::Castling,
) -> Option<String> {
    let topo = &rules.topo;
    {
        let side = rules.side_name(c.side);
        let Some(cells) = rules.castling_cells(c, pos) else {
            return Some(format!(
                "the castling right `{ch}` needs a {side} royal piece on the rank of its partner, with the partner on the castling's side of it"
            ));
        };
        let king_ok = matches!(pos.at(cells.king).as_piece(), Some((s, k)) if s == c.side && rules.castles_as_king(c, k));
        if !king_ok {
            let king = c
                .king_kind
                .map_or("royal piece", |k| rules.pieces[k.index()].name.as_str());
            return Some(format!(
                "the castling right `{ch}` needs a {side} {king} on {}",
                topo.name(cells.king)
            ));
        }
        for &(from, _) in &c.partners {
            // (While the start position itself is read, the rules have none yet.)
            let expected = c.partner_kind.or_else(|| {
                rules
                    .setup
                    .cells()
                    .get(from.index())?
                    .as_piece()
                    .filter(|&(s, k)| s == c.side && !rules.is_royal(k))
                    .map(|(_, k)| k)
            });
            let ok = match (pos.at(from).as_piece(), expected) {
                (Some((s, k)), Some(e)) => s == c.side && k == e,
                (Some((s, k)), None) => s == c.side && !rules.is_royal(k),
                (None, _) => false,
            };
            if !ok {
                let wanted = expected.map_or("piece".to_string(), |k| {
                    rules.pieces[k.index()].name.clone()
                });
                let found = match pos.at(from).as_piece() {
                    Some((s, k)) => format!(
                        "a {} {} stands there",
                        rules.side_name(s),
                        rules.pieces[k.index()].name
                    ),
                    None => "nothing that moves stands there".to_string(),
                };
                return Some(format!(
                    "the castling right `{ch}` needs a {side} {wanted} on {} ({found})",
                    topo.name(from)
                ));
            }
        }
    }
    None
}

/// The rights bits a letter of the castling field sets: the castlings with that letter; for
/// free castlings (rights named by files) also `K`/`Q` (`k`/`q`) for the outermost partner on
/// the king's higher (lower) files, as X-FEN writes them. 0 when the letter names none.
fn castling_letter(rules: &Ruleset, pos: &Position, ch: char) -> u32 {
    let mut bits = 0u32;
    for c in rules.castlings.iter().filter(|c| c.letter == ch) {
        bits |= 1 << c.right;
    }
    if bits != 0 || !matches!(ch, 'K' | 'Q' | 'k' | 'q') {
        return bits;
    }
    let side = if ch.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    let flank = if ch.eq_ignore_ascii_case(&'K') {
        crate::rules::Flank::High
    } else {
        crate::rules::Flank::Low
    };
    let topo = &rules.topo;
    let outermost = rules
        .castlings
        .iter()
        .filter(|c| c.side == side && c.free == Some(flank))
        .filter(|c| {
            rules.castling_cells(c, pos).is_some()
                && matches!(pos.at(c.partners[0].0).as_piece(), Some((s, k)) if s == side && c.partner_kind.is_none_or(|p| p == k))
        })
        .max_by_key(|c| {
            let col = topo.layout(c.partners[0].0).0;
            if flank == crate::rules::Flank::High {
                col as i64
            } else {
                -(col as i64)
            }
        });
    outermost.map_or(0, |c| 1 << c.right)
}

/// The castling field's letters for a set of rights: declared castlings in their order; free
/// castlings White's first, each side's partner files from the highest (Shredder-FEN: `HAha`).
fn castling_text(rules: &Ruleset, rights: u32) -> String {
    let mut list: Vec<&crate::rules::Castling> = Vec::new();
    for c in &rules.castlings {
        if rights & (1 << c.right) != 0 && !list.iter().any(|x| x.right == c.right) {
            list.push(c);
        }
    }
    if list.iter().any(|c| c.free.is_some()) {
        list.sort_by_key(|c| {
            (
                c.side != Side::White,
                std::cmp::Reverse(rules.topo.layout(c.partners[0].0).0),
            )
        });
    }
    list.iter().map(|c| c.letter).collect()
}

fn parse_supplies(
    rules: &Ruleset,
    text: &str,
    at: usize,
) -> Result<BySide<Vec<u32>>, PositionError> {
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
    Ok(BySide::new(one(w, at)?, one(b, at + w.len() + 1)?))
}

/// Writes position text. Supplies and taboo are written only when they differ from the
/// defaults (full supplies, no taboo), so the start position reads as the rulebook writes it.
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
            if let Some((side, k)) = o.as_piece() {
                out.push_str(&rules.letter_text(side, k));
            } else {
                out.push(occupant_char(rules, o));
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    if rules.has_reserve() {
        out.push('[');
        for side in Side::BOTH {
            for (k, p) in rules.pieces.iter().enumerate() {
                if p.reserve.is_some() {
                    let n = pos.supplies[side][rules.hand_slot(PieceKindId::new(k))];
                    let l = if side == Side::White {
                        p.letter
                    } else {
                        p.letter.to_ascii_lowercase()
                    };
                    out.extend(std::iter::repeat_n(l, n as usize));
                }
            }
        }
        out.push(']');
    }
    out.push(' ');
    out.push(if pos.side == Side::White { 'w' } else { 'b' });
    if rules.fields.contains(&PositionField::Supplies) {
        // Supplies and taboo only when they differ from the defaults (the start position's usual text).
        let full: Vec<u32> = rules.stones.iter().map(|s| s.supply).collect();
        let n = full.len();
        let default = pos.supplies[Side::White][..n] == full[..]
            && pos.supplies[Side::Black][..n] == full[..];
        if default && pos.taboo.is_none() {
            return out;
        }
    }
    for field in &rules.fields {
        out.push(' ');
        match field {
            PositionField::Supplies => {
                for (side, supply) in pos.supplies.iter() {
                    if side == Side::Black {
                        out.push('/');
                    }
                    for (k, n) in supply.iter().take(rules.stones.len()).enumerate() {
                        out.push(rules.stones[k].symbol);
                        out.push_str(&n.to_string());
                    }
                }
            }
            PositionField::Taboo => {
                out.push_str(&pos.taboo.map_or("-".to_string(), |t| topo.name(t)));
            }
            PositionField::Castling => {
                let rights = castling_text(rules, pos.castling);
                out.push_str(if rights.is_empty() { "-" } else { &rights });
            }
            PositionField::EnPassant => {
                out.push_str(&pos.ep.map_or("-".to_string(), |t| topo.name(t)));
            }
            PositionField::Checks => {
                let n = rules.end.checks.unwrap_or(0);
                let left = |s: Side| n.saturating_sub(pos.checks[s]);
                out.push_str(&format!("{}+{}", left(Side::White), left(Side::Black)));
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
        let l = rules.pieces[k.index()].letter;
        if side == Side::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    } else if let Some(k) = o.as_stone() {
        rules.stones[k.index()].symbol
    } else if o.as_neutral().is_some() {
        rules.neutral.as_ref().map_or('?', |n| n.symbol)
    } else {
        '.'
    }
}

impl Ruleset {
    /// The start position as position text.
    pub fn setup_text(&self) -> String {
        write_position(self, &self.setup)
    }
}
