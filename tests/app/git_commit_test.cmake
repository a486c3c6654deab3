# cmake -DSOURCE_DIR=<repo> -DSCRATCH=<dir> -P git_commit_test.cmake
# codepayload_git_commit (cmake/BuildVersion.cmake) on hand-made .git layouts:
# a loose ref, a packed ref, a detached HEAD, a worktree's .git file with its
# commondir, and no .git at all. Fails (FATAL_ERROR) on the first wrong answer.
include("${SOURCE_DIR}/cmake/BuildVersion.cmake")

set(loose_commit "1111111111111111111111111111111111111111")
set(packed_commit "2222222222222222222222222222222222222222")
set(detached_commit "3333333333333333333333333333333333333333")
set(worktree_commit "4444444444444444444444444444444444444444")

function(expect_commit tree expected)
  codepayload_git_commit("${tree}" commit)
  if(NOT commit STREQUAL expected)
    message(FATAL_ERROR "${tree}: expected ${expected}, got ${commit}")
  endif()
endfunction()

file(REMOVE_RECURSE "${SCRATCH}")

# A loose ref wins over a stale packed one.
file(WRITE "${SCRATCH}/loose/.git/HEAD" "ref: refs/heads/main\n")
file(WRITE "${SCRATCH}/loose/.git/refs/heads/main" "${loose_commit}\n")
file(WRITE "${SCRATCH}/loose/.git/packed-refs" "# pack-refs with: peeled fully-peeled sorted\n${packed_commit} refs/heads/main\n")
expect_commit("${SCRATCH}/loose" "${loose_commit}")

# Only packed.
file(WRITE "${SCRATCH}/packed/.git/HEAD" "ref: refs/heads/main\n")
file(WRITE "${SCRATCH}/packed/.git/packed-refs"
     "# pack-refs with: peeled fully-peeled sorted\n${loose_commit} refs/heads/main-old\n${packed_commit} refs/heads/main\n")
expect_commit("${SCRATCH}/packed" "${packed_commit}")

# A branch name with regex characters is matched literally.
file(WRITE "${SCRATCH}/odd/.git/HEAD" "ref: refs/heads/release-1.0+x\n")
file(WRITE "${SCRATCH}/odd/.git/packed-refs"
     "${loose_commit} refs/heads/release-1a0+x\n${loose_commit} refs/heads/release-1.00x\n${packed_commit} refs/heads/release-1.0+x\n")
expect_commit("${SCRATCH}/odd" "${packed_commit}")

# Detached HEAD.
file(WRITE "${SCRATCH}/detached/.git/HEAD" "${detached_commit}\n")
expect_commit("${SCRATCH}/detached" "${detached_commit}")

# A worktree: .git is a file; its HEAD names a branch whose ref is in the main repository.
file(WRITE "${SCRATCH}/main/.git/refs/heads/feature" "${worktree_commit}\n")
file(WRITE "${SCRATCH}/main/.git/worktrees/wt/HEAD" "ref: refs/heads/feature\n")
file(WRITE "${SCRATCH}/main/.git/worktrees/wt/commondir" "../..\n")
file(WRITE "${SCRATCH}/wt/.git" "gitdir: ${SCRATCH}/main/.git/worktrees/wt\n")
expect_commit("${SCRATCH}/wt" "${worktree_commit}")

# A relative gitdir.
file(WRITE "${SCRATCH}/wt-relative/.git" "gitdir: ../main/.git/worktrees/wt\n")
expect_commit("${SCRATCH}/wt-relative" "${worktree_commit}")

# Not a checkout; a branch with no commit yet.
file(MAKE_DIRECTORY "${SCRATCH}/plain")
expect_commit("${SCRATCH}/plain" "unknown")
file(WRITE "${SCRATCH}/unborn/.git/HEAD" "ref: refs/heads/main\n")
expect_commit("${SCRATCH}/unborn" "unknown")

# The baseline's release line.
file(WRITE "${SCRATCH}/dictionary.baseline" "# codepayload rule baseline, format 1\n# release: 2031-02-03\nai\t00\n")
codepayload_baseline_release("${SCRATCH}/dictionary.baseline" release)
if(NOT release STREQUAL "2031-02-03")
  message(FATAL_ERROR "baseline release: expected 2031-02-03, got ${release}")
endif()

file(REMOVE_RECURSE "${SCRATCH}")
message(STATUS "git commit and baseline release readers: all cases pass")
