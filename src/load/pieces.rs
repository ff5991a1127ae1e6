//! The pieces and stones of a variant file: their kinds, their movement definitions parsed and
//! compiled, changes of kind, the neutral pieces and drops.

use super::words::{CapturesTo, ChangeOn, DropMate, EnPassantLines, Unavailable};
use super::{
    Blast, Change, ChangeDef, Code, CompileError, Compiler, Diagnostic, Drops, Fragment, IndexMap,
    LetterMark, Loader, MAX_RESERVE, Neutral, Parsed, Picture, PieceDef, PieceKind, PieceKindId,
    Program, Spanned, StoneKind, Topology, Trigger, VariantDef, compile, dedent, dsl, span_of,
    splice,
};

impl Loader<'_> {
    pub(super) fn stones(&mut self, def: &VariantDef) -> Vec<StoneKind> {
        let mut out: Vec<StoneKind> = Vec::new();
        if def.stones.len() > compile::MAX_STONE_KINDS {
            self.problem(
                Code::Stones,
                def.stones
                    .keys()
                    .nth(compile::MAX_STONE_KINDS)
                    .map_or((0, 0), span_of),
                format!(
                    "{} stone kinds: at most {} are supported",
                    def.stones.len(),
                    compile::MAX_STONE_KINDS
                ),
                "the first one too many",
                "occupant filters hold every stone kind in one word: merge kinds that behave alike",
            );
        }
        for (key, s) in &def.stones {
            let sym = s.symbol.get_ref();
            let mut chars = sym.chars();
            let symbol = match (chars.next(), chars.next()) {
                (Some(c), None)
                    if !c.is_alphanumeric()
                        && !c.is_whitespace()
                        && c != '/'
                        && !matches!(c, '-' | '!' | '\'' | '"') =>
                {
                    c
                }
                _ => {
                    self.problem(Code::StoneSymbol, span_of(&s.symbol), format!("stone symbol `{sym}` must be one character that is not a letter, digit, space or one of `/ - ! ' \"`"), "not a usable symbol", "pick a punctuation mark such as ^ ~ # % @");
                    '?'
                }
            };
            if symbol != '?'
                && let Some(other) = out.iter().find(|o| o.symbol == symbol)
            {
                let other = other.id.clone();
                let first = def
                    .stones
                    .get(other.as_str())
                    .map_or((0, 0), |o| span_of(&o.symbol));
                self.problems.push(
                    Diagnostic::error(
                        Code::DuplicateSymbol,
                        span_of(&s.symbol),
                        format!("stone symbol `{symbol}` is already used by `{other}`"),
                        "used twice",
                        "every stone kind needs its own symbol",
                    )
                    .with_label(first, format!("first used here, by `{other}`")),
                );
            }
            let supply = *s.supply.get_ref();
            if !(0..=9999).contains(&supply) {
                self.problem(
                    Code::StoneSupply,
                    span_of(&s.supply),
                    format!("supply {supply} is out of range"),
                    "not 0..=9999",
                    "give how many stones of this kind each side starts with",
                );
            }
            if s.class.get_ref().trim().is_empty() {
                self.problem(
                    Code::StoneClass,
                    span_of(&s.class),
                    "a stone needs an occupant class",
                    "empty",
                    "name its class, e.g. \"arrow-like\"",
                );
            }
            out.push(StoneKind {
                id: key.get_ref().clone(),
                name: s.name.clone().unwrap_or_else(|| key.get_ref().clone()),
                symbol,
                supply: u32::try_from(supply.clamp(0, 9999)).unwrap_or(0),
                class: s.class.get_ref().trim().to_string(),
                collectable: s.collectable,
                explodes: Vec::new(),
                captures: Vec::new(),
                captures_not_by: Vec::new(),
                wins_on: None,
            });
        }
        out
    }

    pub(super) fn pieces_meta(
        &mut self,
        def: &VariantDef,
        stones: &[StoneKind],
    ) -> IndexMap<String, (String, char, LetterMark)> {
        let mut out: IndexMap<String, (String, char, LetterMark)> = IndexMap::new();
        if def.pieces.len() > compile::MAX_PIECE_KINDS {
            self.problem(
                Code::Pieces,
                def.pieces
                    .keys()
                    .nth(compile::MAX_PIECE_KINDS)
                    .map_or((0, 0), span_of),
                format!(
                    "{} piece kinds: at most {} are supported",
                    def.pieces.len(),
                    compile::MAX_PIECE_KINDS
                ),
                "the first one too many",
                "occupant filters hold every piece kind of each side in one word: merge kinds that move alike",
            );
        }
        let reserved = ["empty", "piece", "stone", "own", "enemy"];
        for (key, p) in &def.pieces {
            let id = key.get_ref();
            if reserved.contains(&id.as_str())
                || stones.iter().any(|s| s.id == *id || s.class == *id)
            {
                self.problem(
                    Code::PieceName,
                    span_of(key),
                    format!("piece name `{id}` is already a stone, class or DSL word"),
                    "ambiguous name",
                    "rename the piece so that filters can tell it apart",
                );
            }
            if !id.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                || !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                self.problem(
                    Code::PieceName,
                    span_of(key),
                    format!("piece name `{id}` cannot be written in the DSL"),
                    "not a DSL name",
                    "use letters, digits, `-` and `_`, starting with a letter",
                );
            }
            let l = p.letter.get_ref();
            let Some((letter, mark)) = LetterMark::split(l) else {
                self.problem(Code::PieceLetter, span_of(&p.letter), format!("piece letter `{l}` must be a single letter A–Z, alone or marked as a promoted piece (`Q~`, `+P`)"), "not a letter with at most one mark", "position text writes White's pieces in upper case and Black's in lower case");
                continue;
            };
            let letter = letter.to_ascii_uppercase();
            if let Some((other, _)) = out.iter().find(|(_, (_, c, m))| *c == letter && *m == mark) {
                let other = other.clone();
                let first = def
                    .pieces
                    .get(other.as_str())
                    .map_or((0, 0), |o| span_of(&o.letter));
                self.problems.push(
                    Diagnostic::error(
                        Code::DuplicateLetter,
                        span_of(&p.letter),
                        format!("letter `{l}` is already used by `{other}`"),
                        "used twice",
                        "every piece kind needs its own letter (or the same letter with a mark: `Q~`, `+P`)",
                    )
                    .with_label(first, format!("first used here, by `{other}`")),
                );
            }
            out.insert(
                id.clone(),
                (p.name.clone().unwrap_or_else(|| id.clone()), letter, mark),
            );
        }
        out
    }

    /// Parses every fragment and definition (fragments first, spliced into what uses them).
    pub(super) fn parse_definitions(&mut self, def: &VariantDef) -> (Vec<Fragment>, Vec<Parsed>) {
        // Parse every definition even without a board, so syntax errors all show. Fragments
        // first, each able to use those above it; then the pieces, with fragments spliced in.
        // Each remembers the fragment names it used, so that a fragment with a mistake is
        // reported once, where it is written, and not again in everything that uses it.
        let mut fragments: Vec<Fragment> = Vec::new();
        for (name, text) in &def.fragments {
            let mut used = Vec::new();
            let node = self.parse_dsl(text).map(|mut n| {
                n.keep_text(text.get_ref());
                splice(n, &fragments, &mut used)
            });
            fragments.push((name.get_ref().clone(), node, used));
        }
        let mut parsed = Vec::new();
        for (_, p) in &def.pieces {
            let mut used = Vec::new();
            let moves = self
                .parse_dsl(&p.moves)
                .map(|n| splice(n, &fragments, &mut used));
            let range = p
                .range
                .as_ref()
                .map(|r| self.parse_dsl(r).map(|n| splice(n, &fragments, &mut used)));
            parsed.push((moves, range, used));
        }

        // A fragment nothing uses is probably a definition that forgot it.
        for (name, _) in &def.fragments {
            let used = parsed.iter().any(|(_, _, u)| u.contains(name.get_ref()))
                || fragments.iter().any(|(_, _, u)| u.contains(name.get_ref()));
            if !used {
                self.problems.push(
                    Diagnostic::error(
                        Code::UnusedFragment,
                        span_of(name),
                        format!("fragment `{}` is used by no definition", name.get_ref()),
                        "never used",
                        "use it by its name in a `moves` or `range` (or a later fragment), or remove it",
                    )
                    .warning(),
                );
            }
        }
        (fragments, parsed)
    }

    /// Compiles every fragment on its own (for its diagnostics) and every piece.
    pub(super) fn compile_definitions(
        &mut self,
        def: &VariantDef,
        compiler: &mut Compiler<'_>,
        fragments: &[Fragment],
        parsed: Vec<Parsed>,
        pieces_meta: &IndexMap<String, (String, char, LetterMark)>,
    ) -> Vec<PieceKind> {
        // Each fragment compiled on its own, so that a mistake in it is reported once, where it
        // is written; the pieces using a fragment with a mistake are not compiled.
        let mut bad_fragments: Vec<&str> = Vec::new();
        for ((name, text), (_, node, used)) in def.fragments.iter().zip(fragments) {
            let ok = match node {
                None => false,
                Some(_) if used.iter().any(|u| bad_fragments.contains(&u.as_str())) => false,
                Some(n) => self.compile_dsl(compiler, text, n).is_some(),
            };
            if !ok {
                bad_fragments.push(name.get_ref());
            }
        }
        let mut pieces = Vec::new();
        for ((key, p), (moves, range, used)) in def.pieces.iter().zip(parsed) {
            if used.iter().any(|u| bad_fragments.contains(&u.as_str())) {
                continue;
            }
            let moves_prog = moves
                .as_ref()
                .and_then(|n| self.compile_dsl(compiler, &p.moves, n));
            let range_prog = match (&p.range, range) {
                (Some(r), Some(n)) => n.and_then(|n| self.compile_dsl(compiler, r, &n)),
                _ => moves_prog.clone(),
            };
            let attacks = moves
                .as_ref()
                .and_then(|n| compiler.compile_attacks(p.moves.get_ref(), n).ok());
            if let (Some(m), Some(r), Some(attacks)) = (moves_prog, range_prog, attacks) {
                let (name, letter, mark) =
                    pieces_meta.get(key.get_ref()).cloned().unwrap_or_default();
                pieces.push(PieceKind {
                    id: key.get_ref().clone(),
                    name,
                    letter,
                    mark,
                    captured_as: None,
                    rulings: p.rulings.clone(),
                    moves_text: dedent(p.moves.get_ref()),
                    range_text: p.range.as_ref().map(|r| dedent(r.get_ref())),
                    moves: m,
                    range: r,
                    attacks,
                    stones_per_turn: 1,
                    removes: Vec::new(),
                    royal: p.royal,
                    en_passant: p.en_passant,
                    en_passant_any_line: self.en_passant_lines(p),
                    en_passant_in: None,
                    changes: Vec::new(),
                    reserve: None,
                    at_most: None,
                    value: None,
                    captures_to_reserve: false,
                    takes_reserve_in: None,
                    picture: None,
                });
            }
        }
        pieces
    }

    /// Whether a piece's two-cell moves along any straight line leave an en-passant cell
    /// (`en-passant-lines = "any"`) rather than only those along its file.
    pub(super) fn en_passant_lines(&mut self, p: &PieceDef) -> bool {
        let Some(lines) = &p.en_passant_lines else {
            return false;
        };
        let any = match self.word(lines) {
            Some(EnPassantLines::File) => false,
            Some(EnPassantLines::Any) => true,
            None => return false,
        };
        if !p.en_passant {
            self.problem(
                Code::EnPassant,
                span_of(lines),
                "`en-passant-lines` on a piece that does not take part in en passant",
                "no `en-passant = true` on this piece",
                "add `en-passant = true` to the piece, or remove this line",
            );
        }
        any
    }

    pub(super) fn parse_dsl(&mut self, s: &Spanned<String>) -> Option<dsl::Node> {
        match dsl::parse(s.get_ref()) {
            Ok(n) => Some(n),
            Err(e) => {
                let base = self.content_start(span_of(s));
                self.problem(
                    Code::DslSyntax,
                    (base + e.span.start, base + e.span.end),
                    format!("piece definition syntax: {}", e.message),
                    e.message.clone(),
                    e.help.unwrap_or_else(|| "a definition is legs such as `step(forward) capture`, combined with `|`, sequences, `( )` and `? * + {n,m}`".into()),
                );
                None
            }
        }
    }

    pub(super) fn compile_dsl(
        &mut self,
        c: &mut Compiler<'_>,
        s: &Spanned<String>,
        n: &dsl::Node,
    ) -> Option<Program> {
        match c.compile(s.get_ref(), n) {
            Ok(p) => Some(p),
            Err(errs) => {
                let base = self.content_start(span_of(s));
                self.problems
                    .extend(errs.into_iter().map(|d: CompileError| d.shifted(base)));
                None
            }
        }
    }

    pub(super) fn kind_list(
        &mut self,
        list: &[Spanned<String>],
        known: &[String],
        what: &str,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for s in list {
            match known.iter().position(|k| k == s.get_ref()) {
                Some(i) => out.push(i),
                None => {
                    let code = if what == "stone" {
                        Code::UnknownStone
                    } else {
                        Code::UnknownPiece
                    };
                    self.problem(
                        code,
                        span_of(s),
                        format!("unknown {what} kind `{}`", s.get_ref()),
                        format!("not a {what}"),
                        crate::core::names::suggest(s.get_ref(), known.iter().map(String::as_str)),
                    );
                }
            }
        }
        out
    }

    /// Changes of kind: `promotes-in`/`promotes-to` (a compulsory change on reaching a
    /// region) and the `changes` list; and each kind's `reserve`.
    pub(super) fn changes(
        &mut self,
        def: &VariantDef,
        pieces: &mut [PieceKind],
        regions: &[String],
    ) {
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        for (p, (_, pd)) in def.pieces.iter().enumerate() {
            let mut changes = Vec::new();
            if let Some(n) = &pd.reserve {
                let v = *n.get_ref();
                if !(0..=i64::from(MAX_RESERVE)).contains(&v) {
                    self.problem(
                        Code::Reserve,
                        span_of(n),
                        format!("a reserve of {v} pieces"),
                        "out of range",
                        format!("write a count from 0 to {MAX_RESERVE}"),
                    );
                }
            }
            if let Some(c) = self.promotion(pd, &ids, regions) {
                changes.push(c);
            }
            for c in &pd.changes {
                if let Some(c) = self.change(c, &ids, regions) {
                    changes.push(c);
                }
            }
            if let Some(n) = &pd.value {
                let v = *n.get_ref();
                if !(0..=1_000_000).contains(&v) {
                    self.problem(
                        Code::Value,
                        span_of(n),
                        format!("a value of {v}"),
                        "out of range",
                        "write a worth from 0 to 1000000",
                    );
                }
            }
            let to_reserve =
                self.word_or_default::<CapturesTo>(pd.captures_to.as_ref()) == CapturesTo::Reserve;
            let takes = pd
                .takes_reserve_in
                .as_ref()
                .and_then(|r| self.region_ref(r, regions));
            let en_passant_in = pd.en_passant_in.as_ref().and_then(|r| {
                if !pd.en_passant {
                    self.problem(
                        Code::EnPassant,
                        span_of(r),
                        "`en-passant-in` on a piece that does not take part in en passant",
                        "no `en-passant = true` on this piece",
                        "add `en-passant = true` to the piece, or remove this line",
                    );
                }
                self.region_ref(r, regions)
            });
            let picture = pd.picture.as_ref().and_then(|s| {
                let found = Picture::named(s.get_ref());
                if found.is_none() {
                    self.problem(
                        Code::Picture,
                        span_of(s),
                        format!("no built-in picture is called `{}`", s.get_ref()),
                        "not a picture",
                        crate::core::names::suggest(
                            s.get_ref(),
                            Picture::ALL.iter().map(|(_, n)| *n),
                        ),
                    );
                }
                found
            });
            if let Some(pk) = pieces.get_mut(p) {
                pk.picture = picture;
                pk.captures_to_reserve = to_reserve;
                pk.takes_reserve_in = takes;
                pk.en_passant_in = en_passant_in;
                pk.value = pd
                    .value
                    .as_ref()
                    .and_then(|n| u32::try_from(*n.get_ref()).ok())
                    .filter(|&v| v <= 1_000_000);
                pk.changes = changes;
                pk.reserve = pd
                    .reserve
                    .as_ref()
                    .map(|n| u32::try_from(*n.get_ref()).unwrap_or(0).min(MAX_RESERVE));
                pk.at_most = pd.at_most.as_ref().and_then(|n| self.at_most(n));
                pk.captured_as = self.captured_as(def, pd, &ids);
            }
        }
    }

    /// `captured-as`: a kind kept in the reserve.
    fn captured_as(
        &mut self,
        def: &VariantDef,
        pd: &PieceDef,
        ids: &[String],
    ) -> Option<PieceKindId> {
        let s = pd.captured_as.as_ref()?;
        let k = *self
            .kind_list(std::slice::from_ref(s), ids, "piece")
            .first()?;
        if def
            .pieces
            .values()
            .nth(k)
            .is_some_and(|p| p.reserve.is_none())
        {
            self.problem(
                Code::Reserve,
                span_of(s),
                format!("`{}` is not kept in the reserve", s.get_ref()),
                "never in hand",
                "give that piece a `reserve` (0 for none at the start), so that a captured piece can go into the hand as one",
            );
            return None;
        }
        Some(PieceKindId::new(k))
    }

    /// `at-most`: from 1 to 1000.
    fn at_most(&mut self, n: &Spanned<i64>) -> Option<u32> {
        self.count_of_pieces(
            n,
            "at-most",
            Code::Change,
            "write the most pieces of this kind a side may have by changes of kind, from 1 to 1000 (grand chess: 1 queen)",
        )
    }

    /// A count of pieces in a piece's key (`at-most`, `drop-file-limit`): from 1 to 1000, or a
    /// problem on `key` with `help`.
    fn count_of_pieces(
        &mut self,
        n: &Spanned<i64>,
        key: &str,
        code: Code,
        help: &str,
    ) -> Option<u32> {
        let v = *n.get_ref();
        if (1..=1000).contains(&v) {
            return u32::try_from(v).ok();
        }
        self.problem(
            code,
            span_of(n),
            format!("{key} = {v}"),
            "out of range",
            help,
        );
        None
    }

    /// `promotes-in` with `promotes-to`: a change of kind on reaching the region.
    fn promotion(&mut self, pd: &PieceDef, ids: &[String], regions: &[String]) -> Option<Change> {
        let Some(r) = &pd.promotes_in else {
            if let Some(first) = pd.promotes_to.first() {
                self.problem(
                    Code::Promotion,
                    span_of(first),
                    "`promotes-to` needs `promotes-in`",
                    "no promotion region",
                    "name the own region where the piece promotes, e.g. promotes-in = \"last-rank\"",
                );
            }
            return None;
        };
        let region = self.region_named(r.get_ref(), span_of(r), regions);
        let to = self.kind_list(&pd.promotes_to, ids, "piece");
        if to.is_empty() {
            self.problem(
                Code::Promotion,
                span_of(r),
                "a promotion needs `promotes-to`",
                "no choices",
                "list the piece kinds it may become",
            );
        }
        Some(Change {
            on: Trigger::Reach {
                region: region?,
                enter: false,
            },
            to: to.into_iter().map(PieceKindId::new).collect(),
            optional: false,
            no_move_when_unavailable: false,
        })
    }

    /// One `[[pieces.X.changes]]` entry.
    fn change(&mut self, c: &ChangeDef, ids: &[String], regions: &[String]) -> Option<Change> {
        let event = self.word::<ChangeOn>(&c.on);
        let on = match event {
            None => None,
            Some(e @ (ChangeOn::Reach | ChangeOn::Enter | ChangeOn::Zone)) => match &c.region {
                Some(r) => {
                    self.region_named(r.get_ref(), span_of(r), regions)
                        .map(|region| match e {
                            ChangeOn::Zone => Trigger::Zone(region),
                            _ => Trigger::Reach {
                                region,
                                enter: e == ChangeOn::Enter,
                            },
                        })
                }
                None => {
                    self.problem(
                        Code::Change,
                        span_of(&c.on),
                        format!("a change on `{}` needs a `region`", c.on.get_ref()),
                        "which region?",
                        "name the own region, e.g. region = \"last-rank\"",
                    );
                    None
                }
            },
            Some(ChangeOn::Capture) => Some(Trigger::Capture(
                self.kind_list(&c.kinds, ids, "piece")
                    .into_iter()
                    .map(PieceKindId::new)
                    .collect(),
            )),
            Some(ChangeOn::Check) => Some(Trigger::Check),
        };
        if matches!(event, Some(ChangeOn::Capture | ChangeOn::Check))
            && let Some(r) = &c.region
        {
            {
                self.problem(
                    Code::Change,
                    span_of(r),
                    format!("a change on `{}` has no region", c.on.get_ref()),
                    "not used",
                    "only \"reach\", \"enter\" and \"zone\" take a region; remove it",
                );
            }
        }
        if !c.kinds.is_empty()
            && matches!(
                event,
                Some(ChangeOn::Reach | ChangeOn::Enter | ChangeOn::Zone | ChangeOn::Check)
            )
        {
            self.problem(
                Code::Change,
                span_of(&c.kinds[0]),
                format!("a change on `{}` has no `kinds`", c.on.get_ref()),
                "not used",
                "only \"capture\" takes the kinds whose capture counts; remove it",
            );
        }
        let to = self.kind_list(c.to.get_ref(), ids, "piece");
        if c.to.get_ref().is_empty() {
            self.problem(
                Code::Change,
                span_of(&c.to),
                "a change of kind needs the kinds it may become",
                "empty",
                "list them, e.g. to = [\"queen\"]",
            );
        }
        let no_move_when_unavailable = self.unavailable(c);
        Some(Change {
            on: on?,
            to: to.into_iter().map(PieceKindId::new).collect(),
            optional: c.optional,
            no_move_when_unavailable,
        })
    }

    /// A change's `unavailable`: whether a compulsory change with no kind available forbids
    /// the move (`no-move`) rather than leave the piece as it is (`stays`).
    fn unavailable(&mut self, c: &ChangeDef) -> bool {
        match c.unavailable.as_ref() {
            None => false,
            Some(u) => match self.word(u) {
                None | Some(Unavailable::Stays) => false,
                Some(Unavailable::NoMove) if c.optional => {
                    self.problem(
                        Code::Change,
                        span_of(u),
                        "`unavailable` is for a compulsory change, and this one is optional",
                        "the move may always decline it",
                        "remove `unavailable`, or `optional = true`",
                    );
                    false
                }
                Some(Unavailable::NoMove) => true,
            },
        }
    }

    /// `[neutral]`: the neutral kind, its symbol and the directions of influence.
    pub(super) fn neutral(
        &mut self,
        def: &VariantDef,
        topo: &Topology,
        directions: &[(String, Vec<(i8, i8)>)],
        links: &mut crate::board::LinkTable,
        stones: &[StoneKind],
    ) -> Option<Neutral> {
        let n = def.neutral.as_ref()?;
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let kind = self
            .kind_list(std::slice::from_ref(&n.kind), &ids, "piece")
            .first()
            .map(|&k| PieceKindId::new(k));
        let sym = n.symbol.get_ref();
        let mut chars = sym.chars();
        let symbol = match (chars.next(), chars.next()) {
            (Some(c), None)
                if !c.is_ascii_alphanumeric()
                    && !matches!(c, '/' | '[' | ']' | '-' | ' ')
                    && !stones.iter().any(|s| s.symbol == c) =>
            {
                Some(c)
            }
            _ => {
                self.problem(
                    Code::StoneSymbol,
                    span_of(&n.symbol),
                    format!("`{sym}` cannot mark a neutral piece in position text"),
                    "not usable",
                    "give one character that is no letter, digit, stone symbol, `/`, `[`, `]` or `-`, e.g. \"*\"",
                );
                None
            }
        };
        let influence = self.direction_links(n.influence.get_ref(), topo, directions, links);
        Some(Neutral {
            kind: kind?,
            symbol: symbol?,
            influence,
            captures_neutral: n.captures_neutral.as_ref().is_none_or(|b| *b.get_ref()),
            gives_check: n.gives_check.as_ref().is_some_and(|b| *b.get_ref()),
        })
    }

    /// `[blast]`: the cells around a capture that explode and the kinds that survive.
    pub(super) fn blast(
        &mut self,
        def: &VariantDef,
        topo: &Topology,
        directions: &[(String, Vec<(i8, i8)>)],
        links: &mut crate::board::LinkTable,
    ) -> Option<Blast> {
        let b = def.blast.as_ref()?;
        let around = self.direction_links(b.around.get_ref(), topo, directions, links);
        if around.is_empty() && !b.around.get_ref().is_empty() {
            return None;
        }
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let immune = self
            .kind_list(&b.immune, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect();
        Some(Blast { around, immune })
    }

    /// Direction names (built-in, declared or classed sets) as link ids, each once; an
    /// unknown name is reported.
    fn direction_links(
        &mut self,
        names: &[Spanned<String>],
        topo: &Topology,
        directions: &[(String, Vec<(i8, i8)>)],
        links: &mut crate::board::LinkTable,
    ) -> Vec<u16> {
        let mut ids = Vec::new();
        for d in names {
            let name = d.get_ref();
            let vs: Option<Vec<(i8, i8)>> = directions
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    compile::BUILTIN_DIRECTIONS
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.to_vec())
                })
                .or_else(|| {
                    topo.classed()
                        .find(|(c, _)| &c.name == name)
                        .map(|(c, first)| {
                            (0..c.offsets.len())
                                .map(|j| {
                                    (
                                        crate::board::VIRTUAL0
                                            + i8::try_from(first + j).unwrap_or(i8::MAX - 64),
                                        1,
                                    )
                                })
                                .collect()
                        })
                });
            match vs {
                Some(vs) => {
                    for v in vs {
                        let id = links.intern(topo, v);
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                }
                None => {
                    let known: Vec<&str> = compile::BUILTIN_DIRECTIONS
                        .iter()
                        .map(|(k, _)| *k)
                        .chain(directions.iter().map(|(k, _)| k.as_str()))
                        .chain(topo.classed().map(|(c, _)| c.name.as_str()))
                        .collect();
                    self.problem(
                        Code::UnknownDirection,
                        span_of(d),
                        format!("unknown direction `{name}`"),
                        "not a direction",
                        crate::core::names::suggest(name, known),
                    );
                }
            }
        }
        ids
    }

    /// Each drop kind's `drop-file-limit` and the kinds whose drop may not mate (`drop-mate`).
    fn drop_rules(
        &mut self,
        defs: &[&super::PieceDef],
        kinds: &[PieceKindId],
    ) -> (Vec<Option<u32>>, Vec<PieceKindId>) {
        let file_limits = kinds
            .iter()
            .map(|k| {
                let n = defs.get(k.index()).and_then(|p| p.drop_file_limit.as_ref())?;
                self.count_of_pieces(
                    n,
                    "drop-file-limit",
                    Code::Reserve,
                    "write how many own pieces of this kind a file may hold before none may be dropped on it, from 1 to 1000 (shogi's pawns: 1)",
                )
            })
            .collect();
        let no_mate = kinds
            .iter()
            .copied()
            .filter(|k| {
                let Some(s) = defs.get(k.index()).and_then(|p| p.drop_mate.as_ref()) else {
                    return false;
                };
                self.word(s) == Some(DropMate::Forbidden)
            })
            .collect();
        (file_limits, no_mate)
    }

    /// `[drops]`: where and which kinds (counted in the reserve) may be dropped.
    pub(super) fn drops(
        &mut self,
        def: &VariantDef,
        pieces: &[PieceKind],
        regions: &[String],
    ) -> Option<Drops> {
        let Some(d) = def.drops.as_ref() else {
            for p in def.pieces.values() {
                let keys = [
                    p.drop_file_limit.as_ref().map(span_of),
                    p.drop_mate.as_ref().map(span_of),
                ];
                for span in keys.into_iter().flatten() {
                    self.problem(
                        Code::Reserve,
                        span,
                        "a drop rule in a variant without drops",
                        "no [drops]",
                        "add a [drops] section, or remove this line",
                    );
                }
                if let Some(r) = &p.drops_in {
                    self.problem(
                        Code::Reserve,
                        span_of(r),
                        "`drops-in` in a variant without drops",
                        "no [drops]",
                        "add a [drops] section (its region is where the other kinds drop), or remove `drops-in`",
                    );
                }
            }
            return None;
        };
        let region = self.region_ref(&d.region, regions);
        let ids: Vec<String> = def.pieces.keys().map(|k| k.get_ref().clone()).collect();
        let mut kinds: Vec<PieceKindId> = self
            .kind_list(&d.kinds, &ids, "piece")
            .into_iter()
            .map(PieceKindId::new)
            .collect();
        for s in &d.kinds {
            let k = ids.iter().position(|i| i == s.get_ref());
            if k.and_then(|k| pieces.get(k))
                .is_some_and(|p| p.reserve.is_none())
            {
                self.problem(
                    Code::Reserve,
                    span_of(s),
                    format!("`{}` is not kept in the reserve", s.get_ref()),
                    "never in hand",
                    "give the piece a `reserve` (0 for none at the start) so that it can be held and dropped",
                );
            }
        }
        if kinds.is_empty() {
            kinds = pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.reserve.is_some())
                .map(|(k, _)| PieceKindId::new(k))
                .collect();
        }
        let defs: Vec<&super::PieceDef> = def.pieces.values().collect();
        // Drop rules on a kind that is never dropped would be read by nothing.
        for (k, p) in defs.iter().enumerate() {
            if kinds.contains(&PieceKindId::new(k)) {
                continue;
            }
            let keys = [
                p.drop_file_limit.as_ref().map(span_of),
                p.drop_mate.as_ref().map(span_of),
                p.drops_in.as_ref().map(span_of),
            ];
            for span in keys.into_iter().flatten() {
                self.problem(
                    Code::Reserve,
                    span,
                    format!("a drop rule for `{}`, which is never dropped", ids[k]),
                    "not a kind of [drops]",
                    "add the kind to [drops] kinds (it needs a `reserve`), or remove this line",
                );
            }
        }
        let own: Vec<Option<(super::Whose, super::RegionId)>> = kinds
            .iter()
            .map(|k| {
                defs.get(k.index())
                    .and_then(|p| p.drops_in.as_ref())
                    .and_then(|r| self.region_ref(r, regions))
            })
            .collect();
        let (file_limits, no_mate) = self.drop_rules(&defs, &kinds);
        region.map(|region| Drops {
            region,
            regions: own.into_iter().map(|r| r.unwrap_or(region)).collect(),
            kinds,
            file_limits,
            no_mate,
        })
    }
}
