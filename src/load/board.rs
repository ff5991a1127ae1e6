//! The board section of a variant file: the grid and its masks, colouring and drawing, the
//! sides' names, cell lists, regions and direction sets.

use super::words::WithoutRoyal;
use super::{
    BoardDef, BoardLines, BySide, CellSet, ClassedSet, Code, Colouring, Drawing, Loader, Region,
    RegionId, Side, Spanned, Topology, VariantDef, Whose, compile, span_of,
};

impl Loader<'_> {
    pub(super) fn board(&mut self, b: &BoardDef) -> Option<Topology> {
        let (files, files_ok) = self.file_labels(b);
        let ranks = *b.ranks.get_ref();
        if !(1..=64).contains(&ranks) {
            self.problem(
                Code::Board,
                span_of(&b.ranks),
                format!("{ranks} ranks: a board needs between 1 and 64"),
                "rank count",
                "give the number of ranks",
            );
            return None;
        }
        let ranks = usize::try_from(ranks).unwrap_or(1);
        let start = self.content_start(span_of(&b.mask));
        let text = b.mask.get_ref();
        let mut lines: Vec<(usize, &str)> = Vec::new();
        let mut off = 0;
        for line in text.split('\n') {
            let trimmed = line.trim_end_matches('\r');
            let lead = trimmed.len() - trimmed.trim_start().len();
            if !trimmed.trim().is_empty() {
                lines.push((start + off + lead, trimmed.trim()));
            }
            off += line.len() + 1;
        }
        if lines.len() != ranks {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                format!(
                    "the mask has {} lines but the board has {ranks} ranks",
                    lines.len()
                ),
                "mask",
                "write one line per rank, from the highest rank down: `#` for a cell, `.` for none",
            );
            return None;
        }
        let grid = self.mask_grid(&lines, ranks, files.len());
        let (Some(grid), true) = (grid, files_ok) else {
            return None;
        };
        let topo = Topology::new(files, ranks, |f, r| grid[r][f]);
        if let Some(c) = &b.cells
            && i64::try_from(topo.len()).ok() != Some(*c.get_ref())
        {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                format!(
                    "the mask has {} cells but `cells` says {}",
                    topo.len(),
                    c.get_ref()
                ),
                "mask",
                "correct the mask or the declared count",
            );
        }
        if topo.is_empty() {
            self.problem(
                Code::Mask,
                span_of(&b.mask),
                "the mask has no cell",
                "mask",
                "mark cells with `#`",
            );
            return None;
        }
        Some(topo)
    }

    /// How the board's cells are coloured (`colours`, default chequered).
    pub(super) fn colouring(&mut self, b: &BoardDef) -> Colouring {
        self.word_or_default(b.colours.as_ref())
    }

    /// `[game] sides`: two distinct names of lower-case letters, first player first.
    pub(super) fn side_names(&mut self, def: &VariantDef) -> [String; 2] {
        let default = ["white".to_string(), "black".to_string()];
        let Some(s) = &def.game.sides else {
            return default;
        };
        let names: Vec<&String> = s.get_ref().iter().map(toml::Spanned::get_ref).collect();
        let ok = names.len() == 2
            && names[0] != names[1]
            && names.iter().all(|n| {
                !n.is_empty() && n.len() <= 20 && n.chars().all(|c| c.is_ascii_lowercase())
            });
        if !ok {
            self.problem(
                Code::Board,
                span_of(s),
                "`sides` needs two different names in lower-case letters",
                "not two side names",
                "write e.g. sides = [\"blue\", \"red\"] (the first player first)",
            );
            return default;
        }
        [names[0].clone(), names[1].clone()]
    }

    /// `[game] without-royal`: the sides that play without a royal piece.
    pub(super) fn without_royal(&mut self, def: &VariantDef) -> BySide<bool> {
        let mut out = BySide::new(false, false);
        for side in self.words::<WithoutRoyal>(&def.game.without_royal) {
            out[Side::from(side)] = true;
        }
        if out[Side::White]
            && out[Side::Black]
            && let Some(s) = def.game.without_royal.last()
        {
            self.problem(
                Code::Board,
                span_of(s),
                "both sides without a royal piece",
                "no side left with one",
                "name at most one side; a game where neither side has one declares no piece `royal`",
            );
        }
        out
    }

    /// How pictures draw the board (`drawing`, default squares).
    pub(super) fn drawing(&mut self, b: &BoardDef) -> Drawing {
        self.word_or_default(b.drawing.as_ref())
    }

    /// A `points` drawing's river and diagonals (`[board] river`, `diagonals`).
    pub(super) fn board_lines(
        &mut self,
        b: &BoardDef,
        drawing: Drawing,
        ranks: usize,
        regions: &[String],
    ) -> BoardLines {
        let mut lines = BoardLines::default();
        let only_points = |key: &str| {
            (
                format!("`{key}` is drawn only on a board of points"),
                "not drawn".to_string(),
                format!("add drawing = \"points\" to [board], or remove `{key}`"),
            )
        };
        if let Some(r) = &b.river {
            let v = *r.get_ref();
            // After a rank of the board but the last.
            let river = u32::try_from(v)
                .ok()
                .filter(|&v| v >= 1 && usize::try_from(v).is_ok_and(|v| v < ranks));
            if drawing != Drawing::Points {
                let (m, l, h) = only_points("river");
                self.problem(Code::Board, span_of(r), m, l, h);
            } else if let Some(v) = river {
                lines.river = Some(v);
            } else {
                self.problem(
                    Code::Board,
                    span_of(r),
                    format!("a river after rank {v}: the board's ranks are 1 to {ranks}"),
                    "not between two ranks",
                    format!(
                        "give the rank after which the river runs, 1 to {}",
                        ranks.saturating_sub(1)
                    ),
                );
            }
        }
        if let Some(list) = &b.diagonals {
            if drawing != Drawing::Points {
                let (m, l, h) = only_points("diagonals");
                self.problem(Code::Board, span_of(list), m, l, h);
                return lines;
            }
            for name in list.get_ref() {
                if let Some(r) = self.region_named(name.get_ref(), span_of(name), regions) {
                    lines.diagonals.push(r);
                }
            }
        }
        lines
    }

    /// The file labels, and whether they are all usable (1 to 64, letters, distinct).
    pub(super) fn file_labels(&mut self, b: &BoardDef) -> (Vec<String>, bool) {
        let mut ok = true;
        let files: Vec<String> = b
            .files
            .get_ref()
            .iter()
            .map(|f| f.get_ref().clone())
            .collect();
        if files.is_empty() || files.len() > 64 {
            self.problem(
                Code::Board,
                span_of(&b.files),
                "a board needs between 1 and 64 files",
                "file labels",
                "list the file labels from the lowest file, e.g. [\"a\", \"b\", \"c\"]",
            );
            ok = false;
        }
        for (i, f) in b.files.get_ref().iter().enumerate() {
            let t = f.get_ref();
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphabetic()) {
                self.problem(
                    Code::Board,
                    span_of(f),
                    format!("file label `{t}` is not made of letters"),
                    "not a file label",
                    "file labels are letters, so that cell names read as label + rank number",
                );
                ok = false;
            } else if b.files.get_ref()[..i]
                .iter()
                .any(|g| g.get_ref().eq_ignore_ascii_case(t))
            {
                self.problem(
                    Code::Board,
                    span_of(f),
                    format!("file label `{t}` is used twice"),
                    "used again here",
                    "every file needs its own label",
                );
                ok = false;
            }
        }
        (files, ok)
    }

    /// The mask lines (each with its offset in the file) as a grid of cells, rank by rank
    /// from the lowest; `None` after reporting a line of the wrong length or a stray
    /// character.
    pub(super) fn mask_grid(
        &mut self,
        lines: &[(usize, &str)],
        ranks: usize,
        files: usize,
    ) -> Option<Vec<Vec<bool>>> {
        let mut ok = true;
        let mut grid = vec![vec![false; files]; ranks];
        for (i, (at, line)) in lines.iter().enumerate() {
            let r = ranks - 1 - i;
            if line.chars().count() != files {
                self.problem(
                    Code::Mask,
                    (*at, at + line.len()),
                    format!(
                        "mask line for rank {} has {} characters but the board has {} files",
                        r + 1,
                        line.chars().count(),
                        files
                    ),
                    "wrong length",
                    "write one character per file: `#` for a cell, `.` for none",
                );
                ok = false;
                continue;
            }
            for (f, (bi, ch)) in line.char_indices().enumerate() {
                match ch {
                    '#' => grid[r][f] = true,
                    '.' => {}
                    _ => {
                        self.problem(
                            Code::Mask,
                            (at + bi, at + bi + ch.len_utf8()),
                            format!("`{ch}` is not a mask character"),
                            "not `#` or `.`",
                            "use `#` for a cell and `.` for no cell",
                        );
                        ok = false;
                    }
                }
            }
        }
        ok.then_some(grid)
    }

    pub(super) fn cell_list(&mut self, t: &Topology, s: &Spanned<String>) -> CellSet {
        let mut set = CellSet::new(t.len());
        let start = self.content_start(span_of(s));
        let text = s.get_ref();
        let mut i = 0;
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            let at = start + i;
            i += token.len() + 1;
            if token.is_empty() {
                continue;
            }
            let span = (at, at + token.len());
            let (a, b) = token.split_once('-').unwrap_or((token, token));
            match t.rectangle(a, b) {
                Some(cells) => {
                    let any = !cells.is_empty();
                    for c in cells {
                        set.insert(c);
                    }
                    if !any {
                        self.problem(
                            Code::Region,
                            span,
                            format!("`{token}` holds no cell of the board"),
                            "no cell",
                            "the mask leaves these cells out",
                        );
                    } else if a == b && t.parse_cell(a).is_err() {
                        self.problem(
                            Code::Region,
                            span,
                            format!("`{token}` is not on the board"),
                            "no such cell",
                            "the mask leaves this cell out",
                        );
                    }
                }
                _ => self.problem(
                    Code::Region,
                    span,
                    format!("`{token}` is not a cell or a rectangle of cells"),
                    "not a cell",
                    "write cells like B1 and rectangles like B2-D4, separated by spaces",
                ),
            }
        }
        set
    }

    pub(super) fn regions(&mut self, def: &VariantDef, t: &Topology) -> Vec<Region> {
        if let Some((k, _)) = def.regions.iter().nth(RegionId::MAX) {
            self.problem(
                Code::Region,
                span_of(k),
                format!(
                    "{} regions: at most {} are supported",
                    def.regions.len(),
                    RegionId::MAX
                ),
                "the first one too many",
                "merge regions, or name rectangles of cells instead",
            );
        }
        def.regions
            .iter()
            .take(RegionId::MAX)
            .map(|(k, r)| Region {
                id: k.get_ref().clone(),
                cells: BySide::new(self.cell_list(t, &r.white), self.cell_list(t, &r.black)),
            })
            .collect()
    }

    pub(super) fn region_ref(
        &mut self,
        s: &Spanned<String>,
        regions: &[String],
    ) -> Option<(Whose, RegionId)> {
        let text = s.get_ref().trim();
        let (whose, name) = match text.split_once(char::is_whitespace) {
            Some(("own", n)) => (Whose::Own, n.trim()),
            Some(("enemy", n)) => (Whose::Enemy, n.trim()),
            _ => {
                self.problem(
                    Code::Placement,
                    span_of(s),
                    format!("`{text}` should be `own REGION` or `enemy REGION`"),
                    "not a region reference",
                    "say whose region: e.g. \"own end-zone\"",
                );
                return None;
            }
        };
        self.region_named(name, span_of(s), regions)
            .map(|r| (whose, r))
    }

    /// The region called `name`, or an `unknown_region` problem at `span` with the closest
    /// name: the one resolver of region names in the file's rules.
    pub(super) fn region_named(
        &mut self,
        name: &str,
        span: (usize, usize),
        regions: &[String],
    ) -> Option<RegionId> {
        match regions.iter().position(|r| r == name) {
            Some(i) => Some(RegionId::new(i)),
            None => {
                self.problem(
                    Code::UnknownRegion,
                    span,
                    format!("unknown region `{name}`"),
                    "not a region",
                    crate::core::names::suggest(name, regions.iter().map(String::as_str)),
                );
                None
            }
        }
    }

    pub(super) fn directions(&mut self, def: &VariantDef) -> Vec<(String, Vec<(i8, i8)>)> {
        let mut out = Vec::new();
        for (key, vs) in &def.directions {
            let mut v = Vec::new();
            for pair in vs.get_ref() {
                match pair.get_ref().as_slice() {
                    [a, b] if (-16..=16).contains(a) && (-16..=16).contains(b) && (*a, *b) != (0, 0) => v.push((i8::try_from(*a).unwrap_or(0), i8::try_from(*b).unwrap_or(0))),
                    _ => self.problem(Code::Direction, span_of(pair), "a direction is [file step, rank step], each between -16 and 16, not both 0", "not a direction", "write e.g. [1, 1] (towards higher files and ranks, for White)"),
                }
            }
            if compile::BUILTIN_DIRECTIONS
                .iter()
                .any(|(n, _)| n == key.get_ref())
            {
                self.problem(
                    Code::Direction,
                    span_of(key),
                    format!("`{}` is a built-in direction", key.get_ref()),
                    "already defined",
                    "pick another name",
                );
            }
            out.push((key.get_ref().clone(), v));
        }
        out
    }

    /// `[classes]` and `[directions-by-class]`: direction sets whose offsets depend on the
    /// class of the cell they start from; vector `j` of a set is each class's `j`-th offset.
    pub(super) fn classed_directions(&mut self, def: &VariantDef, t: &Topology) -> Vec<ClassedSet> {
        let mut classes: Vec<(String, CellSet)> = Vec::new();
        for (name, cells) in &def.classes {
            let set = self.cell_list(t, cells);
            for (other, o) in &classes {
                if let Some(c) = set.iter().find(|&c| o.contains(c)) {
                    self.problem(
                        Code::Direction,
                        span_of(cells),
                        format!("{} is in class `{other}` too", t.name(c)),
                        "in two classes",
                        "a cell belongs to one class: its direction sets take their offsets from it",
                    );
                }
            }
            classes.push((name.get_ref().clone(), set));
        }
        let mut out = Vec::new();
        for (key, by_class) in &def.directions_by_class {
            if compile::BUILTIN_DIRECTIONS
                .iter()
                .any(|(n, _)| n == key.get_ref())
                || def.directions.keys().any(|k| k.get_ref() == key.get_ref())
            {
                self.problem(
                    Code::Direction,
                    span_of(key),
                    format!("`{}` is already a direction", key.get_ref()),
                    "already defined",
                    "pick another name",
                );
            }
            let mut count: Option<usize> = None;
            let mut offsets: Vec<Vec<Option<(i8, i8)>>> = Vec::new();
            for (class, vs) in by_class {
                let Some((_, cells)) = classes.iter().find(|(n, _)| n == class.get_ref()) else {
                    let known: Vec<&str> = classes.iter().map(|(n, _)| n.as_str()).collect();
                    self.problem(
                        Code::Direction,
                        span_of(class),
                        format!("unknown class `{}`", class.get_ref()),
                        "not a class",
                        format!("declare it in [classes]; known: {}", known.join(", ")),
                    );
                    continue;
                };
                let mut list = Vec::new();
                for pair in vs.get_ref() {
                    match pair.get_ref().as_slice() {
                        [a, b] if (-16..=16).contains(a) && (-16..=16).contains(b) && (*a, *b) != (0, 0) => {
                            list.push((i8::try_from(*a).unwrap_or(0), i8::try_from(*b).unwrap_or(0)));
                        }
                        _ => self.problem(Code::Direction, span_of(pair), "a direction is [file step, rank step], each between -16 and 16, not both 0", "not a direction", "write e.g. [2, 0]"),
                    }
                }
                match count {
                    None => count = Some(list.len()),
                    Some(n) if n != list.len() => self.problem(
                        Code::Direction,
                        span_of(vs),
                        format!("{} offsets here, {n} for the classes before", list.len()),
                        "a different count",
                        "give every class of a set as many offsets: the j-th of each class make the set's j-th direction",
                    ),
                    _ => {}
                }
                for (j, &v) in list.iter().enumerate() {
                    if offsets.len() <= j {
                        offsets.push(vec![None; t.len()]);
                    }
                    for c in cells.iter() {
                        offsets[j][c.index()] = Some(v);
                    }
                }
            }
            out.push(ClassedSet {
                name: key.get_ref().clone(),
                offsets,
            });
        }
        let total: usize = out.iter().map(|s| s.offsets.len()).sum();
        if total > 60 {
            self.problem(
                Code::Direction,
                (0, 0),
                format!("{total} classed directions: at most 60"),
                "too many",
                "merge direction sets",
            );
        }
        out
    }
}
