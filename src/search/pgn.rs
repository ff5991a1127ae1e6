//! Self-play games as PGN, for games whose turns are only movements, changes of kind and drops
//! (chess, Chess960, xiangqi, …): Standard Algebraic Notation derived from the rules, with the
//! `Variant`, `FEN` and `Result` tags, so other tools (a GUI, python-chess, pyffish) replay
//! them. Games that place or remove stones have no SAN: they are written in move text only.

use crate::core::Side;
use crate::play::{Game, Then, Turn};
use crate::rules::{Ruleset, Trigger};
use crate::text::{parse_turn, write_position};

use super::selfplay::Record;

/// Whether a kind is written without its letter, as SAN writes pawns: it takes en passant or
/// changes kind on reaching a region.
fn letterless(rules: &Ruleset, k: crate::core::PieceKindId) -> bool {
    let p = &rules.pieces[k.index()];
    p.en_passant
        || p.changes
            .iter()
            .any(|c| matches!(c.on, Trigger::Reach { .. }))
}

/// A cell's file label and rank number, apart.
fn file_rank(rules: &Ruleset, c: crate::board::Cell) -> (String, String) {
    let (f, r) = rules.topo.coord(c);
    (
        rules.topo.file_label(f as usize).to_ascii_lowercase(),
        (r + 1).to_string(),
    )
}

/// The SAN of a legal turn of the game's position (`all`: every legal turn there), or `None`
/// for a turn that places or removes stones.
pub fn san(game: &mut Game<'_>, t: &Turn, all: &[Turn]) -> Option<String> {
    let rules = game.rules;
    let name = |c| rules.topo.name(c).to_ascii_lowercase();
    let mut s = match t {
        Turn::Place { .. } | Turn::Remove { .. } => return None,
        Turn::Move { then, .. } if *then != Then::Nothing => return None,
        // The null move of PGN readers.
        Turn::Pass { .. } => "--".to_string(),
        Turn::Drop { kind: k, .. } => format!(
            "{}@{}",
            rules.pieces[k.index()].letter.to_ascii_uppercase(),
            name(t.from())
        ),
        Turn::Move { .. } | Turn::Castle { .. } => {
            let to = t.to()?;
            let (_, kind) = game.pos().at(t.from()).as_piece()?;
            if t.castle().is_some() {
                let (from_file, _) = rules.topo.coord(t.from());
                let (to_file, _) = rules.topo.coord(to);
                if to_file > from_file {
                    "O-O".to_string()
                } else {
                    "O-O-O".to_string()
                }
            } else {
                let mut s = String::new();
                let capture = !t.captures().is_empty();
                let (ff, fr) = file_rank(rules, t.from());
                if letterless(rules, kind) {
                    if capture {
                        s.push_str(&ff);
                    }
                } else {
                    s.push(rules.pieces[kind.index()].letter.to_ascii_uppercase());
                    let rivals: Vec<&Turn> = all
                        .iter()
                        .filter(|o| {
                            o.from() != t.from()
                                && o.to() == t.to()
                                && o.castle().is_none()
                                && game.pos().at(o.from()).as_piece().map(|(_, k)| k) == Some(kind)
                        })
                        .collect();
                    if !rivals.is_empty() {
                        let same_file = rivals.iter().any(|o| file_rank(rules, o.from()).0 == ff);
                        let same_rank = rivals.iter().any(|o| file_rank(rules, o.from()).1 == fr);
                        if !same_file {
                            s.push_str(&ff);
                        } else if !same_rank {
                            s.push_str(&fr);
                        } else {
                            s.push_str(&ff);
                            s.push_str(&fr);
                        }
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&name(to));
                if let Some(k) = t.promote() {
                    s.push('=');
                    s.push(rules.pieces[k.index()].letter.to_ascii_uppercase());
                }
                s
            }
        }
    };
    game.play(t);
    if game.in_check() {
        let mated = game.legal_turns().map_or(true, |v| v.is_empty());
        s.push(if mated { '#' } else { '+' });
    }
    game.undo();
    Some(s)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN, or `None` when a turn has no SAN (stones). `variant` is the name for the
/// `Variant` tag (the bundled name, as Fairy-Stockfish knows it); `event` the `Event` tag.
pub fn pgn(
    start: &Game<'_>,
    rec: &Record,
    variant: &str,
    event: &str,
    agents: (&str, &str),
) -> Option<String> {
    let rules = start.rules;
    let mut game = start.clone();
    let first_side = game.pos().side;
    let mut moves = Vec::new();
    for text in &rec.moves {
        let all = game.legal_turns().ok()?;
        let t = parse_turn(&mut game, text).ok()?;
        moves.push(san(&mut game, &t, &all)?);
        game.play(&t);
    }
    let result = match rec.result {
        Some(Some(Side::White)) => "1-0",
        Some(Some(Side::Black)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    };
    let (white, black) = if rec.swapped {
        (agents.1, agents.0)
    } else {
        agents
    };
    let mut out = String::new();
    for (tag, value) in [
        ("Event", event.to_string()),
        ("Site", "bulwark".to_string()),
        ("Round", (rec.index + 1).to_string()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
        ("Result", result.to_string()),
        ("Variant", variant.to_string()),
        ("FEN", write_position(rules, start.pos())),
        ("SetUp", "1".to_string()),
        (
            "Termination",
            if rec.adjudicated {
                "adjudication"
            } else if rec.result.is_none() {
                "unterminated"
            } else {
                "normal"
            }
            .to_string(),
        ),
    ] {
        out.push_str(&format!("[{tag} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let mut line = String::new();
    let mut number = start.pos().fullmove.max(1);
    let mut side = first_side;
    let mut tokens = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        if side == Side::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
        if side == Side::Black {
            number += 1;
        }
        side = side.opponent();
    }
    tokens.push(result.to_string());
    for tok in tokens {
        if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_position;

    fn sans(fen: &str, moves: &[&str]) -> Vec<String> {
        let rules = Ruleset::load_named("chess").unwrap();
        let pos = parse_position(&rules, fen).unwrap();
        let mut game = Game::new(&rules, pos).unwrap();
        let mut out = Vec::new();
        for m in moves {
            let all = game.legal_turns().unwrap();
            let t = parse_turn(&mut game, m).unwrap();
            out.push(san(&mut game, &t, &all).unwrap());
            game.play(&t);
        }
        out
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn scholars_mate_in_san() {
        let s = sans(
            START,
            &[
                "e2-e4", "e7-e5", "f1-c4", "b8-c6", "d1-h5", "g8-f6", "h5xf7",
            ],
        );
        assert_eq!(s, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    }

    #[test]
    fn castling_disambiguation_promotion_and_check() {
        // Two knights reach d2 (file tells them apart); two rooks on the a-file reach a4
        // (rank tells them apart); castling both ways; a promotion with check.
        let fen = "4k3/1P6/8/R7/8/5N2/8/RN2K2R w K - 0 1";
        assert_eq!(sans(fen, &["b1-d2"]), ["Nbd2"]);
        assert_eq!(sans(fen, &["a5-a4"]), ["R5a4"]);
        assert_eq!(sans(fen, &["e1-g1"]), ["O-O"]);
        assert_eq!(sans(fen, &["b7-b8=Q"]), ["b8=Q+"]);
        let black = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1";
        assert_eq!(sans(black, &["e8-c8"]), ["O-O-O"]);
        // A pawn's capture names its file.
        assert_eq!(
            sans("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &["e4xd5"]),
            ["exd5"]
        );
    }
}
