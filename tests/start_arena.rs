//! The executable's allocator (`src/start_arena.rs`), driven directly: a
//! region of its own in front of a counting allocator, so each test sees
//! which blocks the region served and which it passed on.

#![allow(unsafe_code, clippy::expect_used, clippy::indexing_slicing)]

#[path = "../src/start_arena.rs"]
mod start_arena;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use start_arena::StartArena;

/// What reached the allocator behind the region.
#[derive(Default)]
struct Counting {
    taken: AtomicUsize,
    returned: AtomicUsize,
    resized: AtomicUsize,
}

/// The system allocator, counting into a leaked `Counting`, so that a test
/// keeps the counts while the arena holds the allocator.
#[derive(Clone, Copy)]
struct Behind(&'static Counting);

impl Behind {
    fn new() -> Self {
        Self(Box::leak(Box::default()))
    }
}

// SAFETY: every call is passed on to `System` unchanged.
unsafe impl GlobalAlloc for Behind {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.0.taken.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.0.taken.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        self.0.returned.fetch_add(1, Ordering::Relaxed);
        unsafe { System.dealloc(block, layout) }
    }
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        self.0.resized.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(block, layout, new_size) }
    }
}

type Small = StartArena<4096, Behind>;

/// A 4096-byte region and what reached the allocator behind it.
fn small() -> (Box<Small>, &'static Counting) {
    let behind = Behind::new();
    (Box::new(StartArena::new(behind)), behind.0)
}

fn layout(size: usize, align: usize) -> Layout {
    Layout::from_size_align(size, align).expect("a valid layout")
}

fn count(counter: &AtomicUsize) -> usize {
    counter.load(Ordering::Relaxed)
}

#[test]
fn small_blocks_come_from_the_region_aligned_zeroed_and_apart() {
    let (arena, behind) = small();
    let mut seen = Vec::new();
    for (size, align) in [(1, 1), (24, 8), (3, 1), (16, 16), (100, 64), (8, 8)] {
        let block = unsafe { arena.alloc(layout(size, align)) };
        assert!(!block.is_null());
        assert!(
            arena.owns(block),
            "a {size}-byte block comes from the region"
        );
        assert_eq!(block.addr() % align, 0, "aligned to {align}");
        let bytes = unsafe { std::slice::from_raw_parts(block, size) };
        assert!(
            bytes.iter().all(|&byte| byte == 0),
            "a fresh block is zeroed"
        );
        seen.push((block.addr(), size));
    }
    seen.sort_unstable();
    for pair in seen.windows(2) {
        assert!(
            pair[0].0 + pair[0].1 <= pair[1].0,
            "blocks overlap: {pair:?}"
        );
    }
    assert_eq!(
        count(&behind.taken),
        0,
        "nothing reached the allocator behind"
    );
}

#[test]
fn a_block_too_large_or_too_aligned_goes_to_the_allocator_behind() {
    let (arena, behind) = small();
    let largest = Small::LARGEST_BLOCK;
    for wanted in [layout(largest + 1, 1), layout(8, 8192)] {
        let block = unsafe { arena.alloc(wanted) };
        assert!(!block.is_null());
        assert!(!arena.owns(block));
        assert_eq!(block.addr() % wanted.align(), 0);
        unsafe { arena.dealloc(block, wanted) };
    }
    assert_eq!((count(&behind.taken), count(&behind.returned)), (2, 2));
    let fits = unsafe { arena.alloc(layout(largest, 1)) };
    assert!(arena.owns(fits), "the largest block still fits");
}

#[test]
fn once_the_region_is_used_up_every_block_goes_behind_it() {
    let (arena, behind) = small();
    let block = layout(Small::LARGEST_BLOCK, 1);
    let mut from_region = 0;
    while arena.owns(unsafe { arena.alloc(block) }) {
        from_region += 1;
        assert!(from_region <= 16, "the region served more than it holds");
    }
    assert_eq!(from_region, 16, "4096 bytes hold sixteen 256-byte blocks");
    assert_eq!(count(&behind.taken), 1);
    let tiny = unsafe { arena.alloc(layout(1, 1)) };
    assert!(!arena.owns(tiny));
    assert_eq!(count(&behind.taken), 2);
}

#[test]
fn freeing_a_region_block_does_nothing_and_it_is_not_handed_out_again() {
    let (arena, behind) = small();
    let wanted = layout(32, 8);
    let first = unsafe { arena.alloc(wanted) };
    unsafe { arena.dealloc(first, wanted) };
    let second = unsafe { arena.alloc(wanted) };
    assert!(arena.owns(second));
    assert_ne!(first, second, "a freed block is not reused");
    assert_eq!(
        count(&behind.returned),
        0,
        "the allocator behind never sees it"
    );
}

#[test]
fn growing_a_region_block_moves_its_bytes() {
    let (arena, behind) = small();
    let old = layout(8, 8);
    let block = unsafe { arena.alloc(old) };
    unsafe { block.copy_from_nonoverlapping(b"numi-ok!".as_ptr(), 8) };

    let grown = unsafe { arena.realloc(block, old, 64) };
    assert!(arena.owns(grown));
    assert_ne!(grown, block);
    assert_eq!(unsafe { std::slice::from_raw_parts(grown, 8) }, b"numi-ok!");

    let moved_out = unsafe { arena.realloc(grown, layout(64, 8), Small::LARGEST_BLOCK * 2) };
    assert!(
        !arena.owns(moved_out),
        "too large for the region, so behind it"
    );
    assert_eq!(
        unsafe { std::slice::from_raw_parts(moved_out, 8) },
        b"numi-ok!"
    );
    assert_eq!(count(&behind.taken), 1);
}

#[test]
fn shrinking_a_region_block_keeps_it_in_place() {
    let (arena, _) = small();
    let old = layout(64, 8);
    let block = unsafe { arena.alloc(old) };
    assert_eq!(unsafe { arena.realloc(block, old, 4) }, block);
}

#[test]
fn a_block_from_behind_is_resized_and_freed_behind() {
    let (arena, behind) = small();
    let big = layout(Small::LARGEST_BLOCK + 1, 1);
    let block = unsafe { arena.alloc_zeroed(big) };
    assert!(!arena.owns(block));
    let bytes = unsafe { std::slice::from_raw_parts(block, big.size()) };
    assert!(bytes.iter().all(|&byte| byte == 0));
    let grown = unsafe { arena.realloc(block, big, big.size() * 2) };
    assert!(!arena.owns(grown));
    unsafe { arena.dealloc(grown, layout(big.size() * 2, 1)) };
    assert_eq!(
        [&behind.taken, &behind.resized, &behind.returned].map(count),
        [1, 1, 1]
    );
}

#[test]
fn a_growth_past_what_a_layout_can_hold_fails_without_a_block() {
    let (arena, _) = small();
    let old = layout(8, 8);
    let block = unsafe { arena.alloc(old) };
    let failed = unsafe { arena.realloc(block, old, isize::MAX as usize) };
    assert!(failed.is_null());
}

#[test]
fn threads_that_allocate_at_once_never_share_a_byte() {
    const THREADS: usize = 8;
    // More than the region holds, so that the threads race to its end.
    const BLOCKS: usize = 500;
    let arena: &'static StartArena<65536, Behind> =
        Box::leak(Box::new(StartArena::new(Behind::new())));
    let wanted = layout(24, 8);
    let handles: Vec<_> = (0..THREADS)
        .map(|thread| {
            std::thread::spawn(move || {
                let mut blocks = Vec::with_capacity(BLOCKS);
                for _ in 0..BLOCKS {
                    let block = unsafe { arena.alloc(wanted) };
                    assert!(!block.is_null());
                    unsafe { block.write_bytes(thread as u8 + 1, wanted.size()) };
                    blocks.push(block.expose_provenance());
                }
                blocks
            })
        })
        .collect();
    let mut all = BTreeSet::new();
    for (thread, handle) in handles.into_iter().enumerate() {
        for addr in handle.join().expect("the thread ran") {
            assert!(all.insert(addr), "two threads got the block at {addr:#x}");
            let block = std::ptr::with_exposed_provenance::<u8>(addr);
            let bytes = unsafe { std::slice::from_raw_parts(block, wanted.size()) };
            assert!(
                bytes.iter().all(|&byte| byte == thread as u8 + 1),
                "a block was written by two threads"
            );
        }
    }
    let from_region = all
        .iter()
        .filter(|&&addr| arena.owns(std::ptr::with_exposed_provenance(addr)))
        .count();
    // 24-byte blocks aligned to 8 follow one another with no gap.
    assert_eq!(
        from_region,
        65536 / 24,
        "the region was filled, no byte lost to a race"
    );
}
