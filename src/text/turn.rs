//! Move text, read and written.
//!
//! FROM, then for a movement `-TO` (or `xTO` when the piece captures on TO) and `xCELL` for every
//! other captured cell in board order; then each placed stone as its symbol and cell (`^E5`), or
//! `!CELL` for a removed stone. A stone placed without moving follows FROM directly: `F3^F5`.

use std::fmt;

use crate::board::Cell;
use crate::core::{PieceKindId, StoneKindId};
use crate::play::{DropRefusal, Game, Refusal, Request, Turn};
use crate::rules::Ruleset;
use crate::rules::{LetterMark, Whose};

/// The move text of a pass (`[turn] pass`).
pub const PASS: &str = "pass";

/// The canonical text of a turn.
pub fn turn_text(rules: &Ruleset, t: &Turn) -> String {
    let name = |c: Cell| rules.topo.name(c);
    let mut s = name(t.from());
    match t {
        Turn::Pass { .. } => return PASS.to_string(),
        Turn::Drop { cell, kind } => {
            return format!("{}@{}", rules.pieces[kind.index()].letter, name(*cell));
        }
        Turn::Castle { from, to, index } => {
            // A castling is the king's move, or, where that could be read as a plain king
            // step (or the king stays), the king's move onto its partner's cell.
            let (a, b) = (rules.topo.layout(*from), rules.topo.layout(*to));
            let near = a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1;
            let partner = rules
                .castlings
                .get(*index as usize)
                .and_then(|c| c.partners.first())
                .map(|p| p.0);
            s.push('-');
            s.push_str(&name(match partner {
                Some(p) if near => p,
                _ => *to,
            }));
            return s;
        }
        Turn::Move {
            to,
            captures,
            promote,
            ..
        } => {
            s.push(if captures.contains(to) { 'x' } else { '-' });
            s.push_str(&name(*to));
            for &c in captures.iter().filter(|&c| c != to) {
                s.push('x');
                s.push_str(&name(c));
            }
            if let Some(k) = promote {
                s.push('=');
                s.push_str(&rules.letter_text(crate::core::Side::White, *k));
            }
        }
        Turn::Place { .. } | Turn::Remove { .. } => {}
    }
    if let Some(c) = t.removed() {
        s.push('!');
        s.push_str(&name(c));
    }
    for &(k, c) in t.placed() {
        s.push(rules.stones[k.index()].symbol);
        s.push_str(&name(c));
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
    drop: Option<PieceKindId>,
    promote: Option<PieceKindId>,
    from: Cell,
    to: Option<(Cell, bool)>,
    caps: Vec<Cell>,
    place: Vec<(StoneKindId, Cell)>,
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
    // A drop: the piece's letter, `@`, the cell.
    if let Some((letter, cell)) = text.split_once('@')
        && letter.chars().count() == 1
    {
        let ch = letter.chars().next().unwrap_or(' ');
        let Some(k) = rules
            .kind_by_letter(ch, LetterMark::None)
            .map(PieceKindId::index)
        else {
            return Err(format!("`{ch}@`: not a piece letter of {}", rules.name));
        };
        let mut i = 0;
        let at = read_cell(rules, cell, &mut i)?;
        if i != cell.len() {
            return Err(format!("unexpected `{}` after the drop's cell", &cell[i..]));
        }
        return Ok(Spec {
            drop: Some(PieceKindId::new(k)),
            promote: None,
            from: at,
            to: None,
            caps: Vec::new(),
            place: Vec::new(),
            remove: None,
        });
    }
    let mut i = 0;
    let from = read_cell(rules, text, &mut i)?;
    let mut spec = Spec {
        drop: None,
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
            // A letter, marked or not: `=Q`, `=Q~`, `=+P`.
            let rest = &text[i + 1..];
            let mut chars = rest.chars();
            let (first, second) = (chars.next().unwrap_or(' '), chars.next());
            let (letter, mark, len) = match (first, second) {
                ('+', Some(l)) => (l, LetterMark::Plus, 1 + l.len_utf8()),
                (l, Some('~')) => (l, LetterMark::Tilde, l.len_utf8() + 1),
                (l, _) => (l, LetterMark::None, l.len_utf8()),
            };
            let Some(k) = rules
                .kind_by_letter(letter, mark)
                .or_else(|| same_letter(rules, letter).next())
            else {
                return Err(format!("`={letter}`: not a piece letter of {}", rules.name));
            };
            spec.promote = Some(k);
            i += 1 + len;
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
            spec.place
                .push((StoneKindId::new(k), read_cell(rules, text, &mut i)?));
        } else if rules.stones.is_empty() {
            return Err(format!(
                "unexpected `{ch}` at position {i}: {} has no stones, so nothing follows the cells of a move but a change of kind (`=` and a letter)",
                rules.name
            ));
        } else {
            let symbols: String = rules.stones.iter().map(|s| s.symbol).collect();
            return Err(format!(
                "unexpected `{ch}` at position {i}: after the cells come stone symbols ({symbols}) with a cell, or `!` and a cell"
            ));
        }
    }
    Ok(spec)
}

/// Reads move text as a legal turn of the game's position, or says why it is not one (the
/// engine decides why: [`Game::request`]).
pub fn parse_turn(game: &mut Game<'_>, text: &str) -> Result<Turn, MoveError> {
    let rules = game.rules;
    let fail = |reason: String| MoveError {
        text: text.to_string(),
        reason,
    };
    if text.trim().eq_ignore_ascii_case(PASS) {
        return game
            .request(&Request {
                pass: true,
                ..Request::default()
            })
            .map_err(|r| fail(refusal_text(rules, &r)));
    }
    let spec = read_spec(rules, text.trim()).map_err(fail)?;
    let mut captures = spec.caps.clone();
    if let Some((to, true)) = spec.to {
        captures.push(to);
    }
    let request = Request {
        from: spec.from,
        to: spec.to.map(|(c, _)| c),
        captures,
        place: spec.place,
        remove: spec.remove,
        promote: spec.promote,
        drop: spec.drop,
        pass: false,
    };
    let first = game.request(&request);
    // `=Q` names the kinds that share the letter with a mark too (`Q~`), when only one of
    // them is the change of a legal turn.
    if first.is_err()
        && let Some(k) = request.promote
        && rules.pieces[k.index()].mark == LetterMark::None
    {
        let letter = rules.pieces[k.index()].letter;
        let found: Vec<Turn> = same_letter(rules, letter)
            .filter(|&o| o != k)
            .filter_map(|o| {
                game.request(&Request {
                    promote: Some(o),
                    ..request.clone()
                })
                .ok()
            })
            .collect();
        if let [only] = found.as_slice() {
            return Ok(only.clone());
        }
    }
    first.map_err(|r| fail(refusal_text(rules, &r)))
}

/// The kinds written with this letter (either case), marked or not.
fn same_letter(rules: &Ruleset, letter: char) -> impl Iterator<Item = PieceKindId> + '_ {
    PieceKindId::all(rules.pieces.len())
        .filter(move |k| rules.pieces[k.index()].letter.eq_ignore_ascii_case(&letter))
}

/// A refusal in words, with the variant's names.
// One match arm per kind of refusal: a table, read top to bottom.
#[allow(clippy::too_many_lines)]
pub fn refusal_text(rules: &Ruleset, r: &Refusal) -> String {
    let name = |c: Cell| rules.topo.name(c);
    let piece = |k: PieceKindId| rules.pieces[k].name.as_str();
    let stone = |k: StoneKindId| rules.stones[k].name.as_str();
    match r {
        Refusal::GameOver(o) => format!("the game is over: {}", o.text(rules)),
        Refusal::NoPiece(c) => format!("no piece stands on {}", name(*c)),
        Refusal::NotYourPiece { at, kind, owner } => format!(
            "the {} on {} is {owner}'s, and it is {}'s turn",
            piece(*kind),
            name(*at),
            owner.opponent()
        ),
        Refusal::NotAMove { from, to, kind } => format!(
            "{} to {} is not a move of the {} on {}",
            name(*from),
            name(*to),
            piece(*kind),
            name(*from)
        ),
        Refusal::WrongCaptures { kind, to, ways } => {
            let mut texts: Vec<String> = ways.iter().map(|t| turn_text(rules, t)).collect();
            texts.dedup();
            format!(
                "the {} reaching {} does not capture that; it can be written {}",
                piece(*kind),
                name(*to),
                texts.join(" or ")
            )
        }
        Refusal::Pass => "a turn moves a piece or places a stone; passing is not a turn".into(),
        Refusal::PassNotLegal => {
            "passing here would leave the royal piece attacked, so it is not a turn".into()
        }
        Refusal::TooManyStones { kind } => {
            let n = rules.pieces[(*kind).index()].stones_per_turn;
            format!(
                "the {} places at most {n} stone{} per turn",
                piece(*kind),
                if n == 1 { "" } else { "s" }
            )
        }
        Refusal::SameCell => "two stones go on two different cells".into(),
        Refusal::NoSupply { side, stone: k } => format!("{side} has no {} left", stone(*k)),
        Refusal::OutOfRange { cell, kind, from } => format!(
            "{} is not in the {}'s range from {}",
            name(*cell),
            piece(*kind),
            name(*from)
        ),
        Refusal::Taboo(c) => format!(
            "{} was emptied by an explosion and may not receive a stone this turn",
            name(*c)
        ),
        Refusal::ForbiddenRegion {
            cell,
            whose,
            region,
        } => format!(
            "{} is in {} {}: no stone may go there",
            name(*cell),
            if *whose == Whose::Own {
                "your own"
            } else {
                "the opponent's"
            },
            rules.regions[(*region).index()].id
        ),
        Refusal::NotAllowedHere { stone: k, cell } => {
            format!("a {} may not go on {}", stone(*k), name(*cell))
        }
        Refusal::CapturesNothing {
            stone: k,
            victim,
            cell,
        } => format!(
            "a {} placed on the {} on {} captures nothing here",
            stone(*k),
            piece(*victim),
            name(*cell)
        ),
        Refusal::OwnPiece(c) => format!("{} holds your own piece", name(*c)),
        Refusal::CannotExplode { stone: k, cell } => {
            format!(
                "a {} cannot blow up the stone on {}",
                stone(*k),
                name(*cell)
            )
        }
        Refusal::TooManyExplosions => format!(
            "these two stones may not go together (at most {} explosion{} per turn)",
            rules.turn.explosions,
            if rules.turn.explosions == 1 { "" } else { "s" }
        ),
        Refusal::CannotRemove { kind } => format!("the {} cannot remove stones", piece(*kind)),
        Refusal::NothingToRemove { cell, kind } => format!(
            "there is no stone on {} that the {} may remove",
            name(*cell),
            piece(*kind)
        ),
        Refusal::RemoveOutOfRange { cell, kind } => {
            format!("{} is not in the {}'s range", name(*cell), piece(*kind))
        }
        Refusal::NotLegal => "not a legal turn".into(),
        Refusal::Repeats => "it would repeat an earlier position, which is not allowed".into(),
        Refusal::CannotDrop { kind, cell, why } => {
            let (p, c) = (piece(*kind), name(*cell));
            match why {
                DropRefusal::NotInHand => format!("there is no {p} in your reserve to drop"),
                DropRefusal::NotDropped => format!("a {p} is never dropped in {}", rules.name),
                DropRefusal::Occupied => {
                    format!("a {p} may not be dropped on {c}: it is not empty")
                }
                DropRefusal::OutsideRegion => {
                    format!("a {p} may not be dropped on {c}: it is outside the {p}'s drop region")
                }
                DropRefusal::FileFull(1) => format!(
                    "a {p} may not be dropped on {c}: its file already holds one of your {p}s"
                ),
                DropRefusal::FileFull(n) => format!(
                    "a {p} may not be dropped on {c}: its file already holds {n} of your {p}s"
                ),
                DropRefusal::Mates => {
                    format!("a {p} dropped on {c} would checkmate, and a {p}'s drop may not")
                }
                DropRefusal::Unsafe => {
                    format!("a {p} dropped on {c} would leave your royal piece attacked")
                }
            }
        }
    }
}
