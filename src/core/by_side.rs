//! A value for each side, indexed by [`Side`].

use std::ops::{Index, IndexMut};

use super::Side;

/// One value per side: `x[Side::White]`, `x[Side::Black]`.
#[derive(Debug, Copy, PartialEq, Eq, Hash, Default)]
pub struct BySide<T> {
    white: T,
    black: T,
}

#[allow(
    clippy::expl_impl_clone_on_copy,
    reason = "written out for `clone_from`, which reuses each side's buffers"
)]
impl<T: Clone> Clone for BySide<T> {
    fn clone(&self) -> Self {
        BySide {
            white: self.white.clone(),
            black: self.black.clone(),
        }
    }

    /// Field by field, so that values with buffers (vectors) reuse them.
    fn clone_from(&mut self, source: &Self) {
        self.white.clone_from(&source.white);
        self.black.clone_from(&source.black);
    }
}

impl<T> BySide<T> {
    /// White's and Black's values.
    pub const fn new(white: T, black: T) -> BySide<T> {
        BySide { white, black }
    }

    /// The same value for both sides.
    pub fn both(v: T) -> BySide<T>
    where
        T: Clone,
    {
        BySide {
            white: v.clone(),
            black: v,
        }
    }

    /// Each side with its value, White first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        [(Side::White, &self.white), (Side::Black, &self.black)].into_iter()
    }

    /// The values mapped.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            white: f(self.white),
            black: f(self.black),
        }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Side) -> &T {
        match s {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, s: Side) -> &mut T {
        match s {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }
}
