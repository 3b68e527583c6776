//! The executable's allocator: a run's first allocations are carved, one
//! after the other, from a fixed region of zeroed memory in the executable's
//! own data; the rest, and any block too large or too aligned for the
//! region, come from the allocator behind it (mimalloc).
//!
//! A one-file run makes a few hundred small allocations. Sent to mimalloc,
//! they make it reserve its arena, lay out a segment and start a page of its
//! own for each of some thirty size classes, touching some sixty pages of
//! memory (a third of the run's page faults) and handing them back at exit.
//! Carved from the region, they fill sixteen pages. A block from the region
//! is never reused: freeing it does nothing, so the region bounds what it
//! can waste, and a long run pays a bounds test per allocation and a range
//! check per free.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest alignment the region serves; the region itself is aligned to
/// it (`repr(align)` below), so an aligned offset is an aligned address.
const REGION_ALIGN: usize = 4096;

/// A region of `BYTES` bytes in front of the allocator `Rest`.
#[repr(C, align(4096))]
pub struct StartArena<const BYTES: usize, Rest> {
    region: UnsafeCell<[u8; BYTES]>,
    /// How many bytes of the region are handed out; only grows.
    used: AtomicUsize,
    rest: Rest,
}

// SAFETY: the region is shared between threads only through `take`, which
// hands each byte out at most once (an atomic bump of `used`), so no two
// threads ever hold the same bytes.
unsafe impl<const BYTES: usize, Rest: Sync> Sync for StartArena<BYTES, Rest> {}

impl<const BYTES: usize, Rest> StartArena<BYTES, Rest> {
    /// The largest block the region serves: larger ones are rare, and one
    /// would use up the region that many small ones share.
    pub const LARGEST_BLOCK: usize = BYTES / 16;

    pub const fn new(rest: Rest) -> Self {
        Self {
            region: UnsafeCell::new([0; BYTES]),
            used: AtomicUsize::new(0),
            rest,
        }
    }

    /// Whether `block` lies in the region.
    pub fn owns(&self, block: *const u8) -> bool {
        let start = self.region.get().cast::<u8>().cast_const();
        block.addr().wrapping_sub(start.addr()) < BYTES
    }

    /// A fresh, zeroed block of the region for `layout`, if it fits.
    fn take(&self, layout: Layout) -> Option<*mut u8> {
        if layout.size() > Self::LARGEST_BLOCK || layout.align() > REGION_ALIGN {
            return None;
        }
        // The alignment is a power of two: rounding up is a mask, not a
        // division, on a path every allocation of a long run takes.
        let mask = layout.align() - 1;
        // Handing out a block publishes nothing: its bytes were never written,
        // and the caller orders its own use of them. So `Relaxed` suffices.
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            // `used` is at most `BYTES`, which fits in an `isize` as the
            // region's size, and `mask` and the size are far smaller: no sum
            // can overflow.
            let start = (used + mask) & !mask;
            let end = start + layout.size();
            if end > BYTES {
                return None;
            }
            match self
                .used
                .compare_exchange_weak(used, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                // SAFETY: `start + size <= BYTES`, so the block is inside the region.
                Ok(_) => return Some(unsafe { self.region.get().cast::<u8>().add(start) }),
                Err(now) => used = now,
            }
        }
    }
}

// SAFETY: a block from the region is inside it, aligned (the region is
// aligned to `REGION_ALIGN` and the offset to the layout's alignment) and
// handed out once; every other block is the `Rest` allocator's and goes back
// to it.
unsafe impl<const BYTES: usize, Rest: GlobalAlloc> GlobalAlloc for StartArena<BYTES, Rest> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match self.take(layout) {
            Some(block) => block,
            // SAFETY: the caller's contract for `layout`, passed on.
            None => unsafe { self.rest.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match self.take(layout) {
            // The region's bytes start as zeros and are handed out once.
            Some(block) => block,
            // SAFETY: the caller's contract for `layout`, passed on.
            None => unsafe { self.rest.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !self.owns(block) {
            // SAFETY: not the region's, so the `Rest` allocator's.
            unsafe { self.rest.dealloc(block, layout) }
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !self.owns(block) {
            // SAFETY: not the region's, so the `Rest` allocator's.
            return unsafe { self.rest.realloc(block, layout, new_size) };
        }
        if new_size <= layout.size() {
            return block;
        }
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return ptr::null_mut();
        };
        // SAFETY: `new_layout` has a non-zero size (larger than the old one).
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            // SAFETY: both blocks hold at least `layout.size()` bytes, and a
            // fresh block does not overlap a live one.
            unsafe { ptr::copy_nonoverlapping(block, moved, layout.size()) };
        }
        moved
    }
}
