//! Invariants over untrusted text, each a function that returns what went wrong instead of
//! asserting: the fuzz targets in `fuzz/` panic on an `Err`, and the regression tests in
//! `tests/fuzz_regressions.rs` run the same functions over every input the fuzzers kept. That
//! an input is rejected is fine; a panic, a hang or a broken invariant is not.

use crate::load::BUNDLED;
use crate::play::Game;
use crate::view as render;
use crate::{Occupant, Position, Ruleset, Side, text};

/// At most this many turns of one position are played and taken back (a Bollwerk position
/// has thousands; a sample keeps one fuzz iteration fast).
const TURN_SAMPLE: usize = 16;

/// A variant file: loading answers; a loaded variant plays its start position and draws
/// every piece's diagram on the central cell of an empty board.
pub fn variant_text(text: &str) -> Result<(), String> {
    let Ok(rules) = Ruleset::from_source("fuzz.toml", text) else {
        return Ok(());
    };
    let setup = text::write_position(&rules, &rules.setup);
    position_text(&rules, &setup)?;
    let centre = rules
        .topo
        .cells()
        .nth(rules.topo.len() / 2)
        .unwrap_or_default();
    for k in 0..rules.pieces.len() {
        let mut pos = Position::empty(rules.topo.len(), rules.initial_hand());
        pos.put(
            centre,
            Occupant::piece(Side::White, crate::core::PieceKindId::new(k)),
        );
        match render::diagram(&rules, &pos, centre) {
            Ok(d) => {
                let _ = render::diagram_text(&rules, &pos, &d);
            }
            Err(render::DiagramError::Runaway(_)) => {}
            Err(e) => return Err(format!("diagram of piece {k}: {e}")),
        }
    }
    Ok(())
}

/// A piece definition, put into a small variant as the second piece's movement: it loads or
/// is rejected with problems; loaded, its options are listed from every cell of the board.
pub fn definition(def: &str) -> Result<(), String> {
    let text = format!(
        "[game]\nname = \"Fuzz\"\n\n[board]\nfiles = [\"a\", \"b\", \"c\", \"d\", \"e\"]\nranks = 5\nmask = \"\"\"\n#####\n#####\n#####\n#####\n#####\n\"\"\"\n\n[regions.home]\nwhite = \"a1-e1\"\nblack = \"a5-e5\"\n\n[stones.wall]\nsymbol = \"#\"\nsupply = 2\nclass = \"block-like\"\n\n[stones.flag]\nsymbol = \"~\"\nsupply = 1\nclass = \"arrow-like\"\ncollectable = true\n\n[pieces.guard]\nletter = \"G\"\nmoves = \"step(forward) capture\"\n\n[pieces.subject]\nletter = \"X\"\nmoves = '''{}'''\n\n[setup]\nposition = \"g1g1g/1#1~1/G1X1g/5/G3G w\"\n",
        def.replace("'''", "")
    );
    if text.len() > 20_000 {
        return Ok(());
    }
    match Ruleset::from_source("fuzz.toml", &text) {
        Err(e) if e.problems.is_empty() => Err("rejected without a problem".into()),
        Err(_) => Ok(()),
        Ok(rules) => {
            let setup = text::write_position(&rules, &rules.setup);
            position_text(&rules, &setup)
        }
    }
}

/// Position text for a variant: read, or rejected with a message; read, it is written back
/// to text that reads as the same position; its legal turns each have a move text that reads
/// back as the same turn; playing and taking back a turn restores the position and its hash,
/// and the incremental hash equals the hash computed from scratch.
pub fn position_text(rules: &Ruleset, text: &str) -> Result<(), String> {
    let Ok(pos) = text::parse_position(rules, text) else {
        return Ok(());
    };
    let written = text::write_position(rules, &pos);
    let again = text::parse_position(rules, &written)
        .map_err(|e| format!("`{written}` (written from `{text}`) does not read back: {e}"))?;
    if again != pos {
        return Err(format!(
            "`{text}` reads differently after writing as `{written}`"
        ));
    }
    let mut game = Game::new(rules, pos.clone())
        .map_err(|u| format!("`{text}` reads but is not playable: {}", u.text(rules)))?;
    let Ok(turns) = game.legal_turns() else {
        return Ok(());
    };
    if game.runaway().is_some() {
        return Ok(());
    }
    let step = (turns.len() / TURN_SAMPLE).max(1);
    for t in turns.iter().step_by(step) {
        let mt = text::turn_text(rules, t);
        let back = text::parse_turn(&mut game, &mt)
            .map_err(|e| format!("`{mt}` in `{text}` does not read back: {e}"))?;
        if &back != t {
            return Err(format!("`{mt}` in `{text}` reads back as another turn"));
        }
        let before = game.hash();
        game.play(t);
        if game.hash() != rules.zobrist().hash(game.pos()) {
            return Err(format!(
                "hash after `{mt}` in `{text}` is not the position's"
            ));
        }
        game.undo();
        if *game.pos() != pos || game.hash() != before {
            return Err(format!(
                "undo of `{mt}` in `{text}` does not restore the position"
            ));
        }
    }
    Ok(())
}

/// Move text in the start position of a variant: read as a legal turn (whose own text then
/// reads back as it) or rejected with a reason.
pub fn move_text(rules: &Ruleset, text: &str) -> Result<(), String> {
    let mut game = Game::start(rules);
    if let Ok(t) = text::parse_turn(&mut game, text) {
        let legal = game.legal_turns().unwrap_or_default();
        if !legal.contains(&t) {
            return Err(format!("`{text}` was read as a turn that is not legal"));
        }
    }
    Ok(())
}

/// A history in move text (turns separated by any white space) from the start of a variant:
/// each turn that reads is legal there and is played; a turn that does not read stops the
/// replay. Taking every played turn back restores the start and its hash.
pub fn history_text(rules: &Ruleset, text: &str) -> Result<(), String> {
    let mut game = Game::start(rules);
    let start = game.pos().clone();
    let start_hash = game.hash();
    let mut played = 0usize;
    for word in text.split_whitespace().take(crate::play::MAX_HISTORY_TURNS) {
        let Ok(t) = text::parse_turn(&mut game, word) else {
            break;
        };
        if game.runaway().is_some() {
            break;
        }
        if !game.legal_turns().unwrap_or_default().contains(&t) {
            return Err(format!(
                "`{word}` (turn {}) was read as a turn that is not legal",
                played + 1
            ));
        }
        game.play(&t);
        played += 1;
    }
    for _ in 0..played {
        game.undo();
    }
    if *game.pos() != start || game.hash() != start_hash {
        return Err(format!(
            "taking back the {played} turns of `{text}` does not restore the start"
        ));
    }
    Ok(())
}

/// The web board's requests on one game, one a line (`play TEXT`, `undo`, `redo`,
/// `position TEXT`, `history TEXT`, `turns [CELL]`, `diagram CELL`, `state`, `export`,
/// `variant TEXT` with `\n` for line ends): every request answers, an error with a 4xx
/// status (a 5xx only for work stopped at its limit), and after each one the game's state
/// answers and its exported record replays to the same position.
#[cfg(feature = "serve")]
pub fn requests(variant: &crate::serve::Variant, script: &str) -> Result<(), String> {
    use crate::serve::{Parents, Session};
    let mut s = Session::new(variant.clone(), 1);
    for line in script.lines().take(64) {
        let (op, arg) = line.split_once(' ').unwrap_or((line, ""));
        let r: Result<(), crate::serve::ApiError> = match op {
            "play" => s.play(arg).map(drop),
            "undo" => s.undo(),
            "redo" => s.redo(),
            "position" => s.set_position(Some(arg), None),
            "history" => s.set_position(None, Some(arg)),
            "turns" => {
                // `turns FROM [CLICKS]`: the turns from a cell, those starting with the clicks.
                let (from, clicks) = arg
                    .split_once(' ')
                    .map_or((arg, None), |(f, c)| (f, Some(c)));
                s.turns((!from.is_empty()).then_some(from), clicks, 200)
                    .map(drop)
            }
            "diagram" => s.diagram(arg).map(drop),
            "state" => s.state().map(drop),
            "export" => s.export().map(drop),
            "variant" => crate::serve::Variant::load_within(
                "edited.toml",
                &arg.replace("\\n", "\n"),
                &crate::load::LoadOptions {
                    parents: Parents::Within(None),
                    ..crate::load::LoadOptions::default()
                },
            )
            .and_then(|v| s.set_variant(v).map(drop)),
            _ => Ok(()),
        };
        if let Err(e) = r
            && !(400..500).contains(&e.status)
            && e.status != 503
        {
            return Err(format!("`{line}` answered {}: {}", e.status, e.message));
        }
        if let Err(e) = s.state()
            && e.status != 409
        {
            return Err(format!(
                "after `{line}` the state does not answer: {}",
                e.message
            ));
        }
    }
    Ok(())
}

/// The bundled variants, loaded.
pub fn bundled() -> Vec<Ruleset> {
    BUNDLED
        .iter()
        .filter_map(|(name, _)| Ruleset::load_named(name).ok())
        .collect()
}
