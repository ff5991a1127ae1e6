//! Newtype ids for what a variant declares: piece kinds, stone kinds and regions, each the
//! index of its declaration, bounded by the loader's limits so that it fits its width.

use std::ops::{Index, IndexMut};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident($int:ty), $max:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name($int);

        impl $name {
            /// Most ids of this kind a variant may declare.
            pub const MAX: usize = $max;

            /// The id of the declaration with this index (below [`Self::MAX`]).
            #[inline]
            pub const fn new(index: usize) -> $name {
                debug_assert!(index < $name::MAX);
                #[allow(clippy::cast_possible_truncation)] // below MAX, which fits the width
                $name(index as $int)
            }

            /// The index of its declaration.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The index as a `u32` (lossless).
            #[inline]
            pub fn as_u32(self) -> u32 {
                u32::from(self.0)
            }

            /// Every id below `n`, in order.
            pub fn all(n: usize) -> impl Iterator<Item = $name> {
                (0..n).map($name::new)
            }
        }

        impl<T> Index<$name> for Vec<T> {
            type Output = T;
            #[inline]
            fn index(&self, i: $name) -> &T {
                &self[i.index()]
            }
        }

        impl<T> IndexMut<$name> for Vec<T> {
            #[inline]
            fn index_mut(&mut self, i: $name) -> &mut T {
                &mut self[i.index()]
            }
        }
    };
}

id!(
    /// A piece kind: the index of its `[pieces.ID]` table.
    PieceKindId(u8),
    32
);
id!(
    /// A stone kind: the index of its `[stones.ID]` table.
    StoneKindId(u8),
    60
);
id!(
    /// A region: the index of its `[regions.ID]` table.
    RegionId(u16),
    1024
);
