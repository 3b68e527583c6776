#!/usr/bin/env bash
# Puts numi on the PATH of a GitHub Actions job: the release binary for the
# runner, checked against the release's SHA-256 sums, or numi built from the
# action's own checkout when no release fits (a local `uses: $/`, a runner
# without a release binary, a version without a release).
#
# Environment: NUMI_VERSION (a version, `source`, or empty for the action's
# own version), NUMI_ACTION_REPOSITORY (owner/name the action comes from,
# empty for a local action), GITHUB_ACTION_PATH, GITHUB_SERVER_URL,
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH.
set -euo pipefail

install_root="$RUNNER_TEMP/numi"
mkdir -p "$install_root/bin"

build_from_checkout() {
  echo "numi: $1; building numi from the action's checkout"
  cargo install --locked --path "$GITHUB_ACTION_PATH" --root "$install_root"
  echo "$install_root/bin" >> "$GITHUB_PATH"
  exit 0
}

version="${NUMI_VERSION:-}"
if [ "$version" = source ]; then
  build_from_checkout "version is 'source'"
fi
if [ -z "$version" ]; then
  if [ -z "${NUMI_ACTION_REPOSITORY:-}" ]; then
    build_from_checkout "the action is used from this repository"
  fi
  version="$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$GITHUB_ACTION_PATH/Cargo.toml" | head -n 1)"
fi
case "$version" in
  v*) version="${version#v}" ;;
esac
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "::error::numi action: version is X.Y.Z or 'source', not '$version'"
  exit 2
fi
repository="${NUMI_ACTION_REPOSITORY:-}"
if [ -z "$repository" ]; then
  build_from_checkout "the action is used from this repository, with no release to download from"
fi

case "$RUNNER_OS/$RUNNER_ARCH" in
  Linux/X64) target=x86_64-unknown-linux-musl ;;
  Linux/ARM64) target=aarch64-unknown-linux-musl ;;
  macOS/X64) target=x86_64-apple-darwin ;;
  macOS/ARM64) target=aarch64-apple-darwin ;;
  Windows/X64) target=x86_64-pc-windows-msvc ;;
  *) build_from_checkout "no release binary for $RUNNER_OS on $RUNNER_ARCH" ;;
esac
if [ "$RUNNER_OS" = Windows ]; then
  archive="numi-v$version-$target.zip"
else
  archive="numi-v$version-$target.tar.gz"
fi

download="$RUNNER_TEMP/numi-download"
rm -rf "$download"
mkdir -p "$download"
release="$GITHUB_SERVER_URL/$repository/releases/download/v$version"
fetch() {
  curl --fail --silent --show-error --location --retry 3 --proto '=https,file' \
    --output "$download/$1" "$release/$1"
}
if ! fetch SHA256SUMS || ! fetch "$archive"; then
  build_from_checkout "no release v$version with $archive in $repository"
fi

expected="$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$download/SHA256SUMS")"
if command -v sha256sum > /dev/null; then
  actual="$(sha256sum "$download/$archive" | awk '{ print $1 }')"
else
  actual="$(shasum -a 256 "$download/$archive" | awk '{ print $1 }')"
fi
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  echo "::error::numi action: $archive does not match its SHA-256 sum in the release (expected '${expected}', got '$actual'); not installed"
  exit 1
fi

if [ "$RUNNER_OS" = Windows ]; then
  unzip -o -q "$download/$archive" -d "$download/unpacked"
  cp "$download/unpacked/numi.exe" "$install_root/bin/"
else
  mkdir -p "$download/unpacked"
  tar -xzf "$download/$archive" -C "$download/unpacked"
  cp "$download/unpacked/numi" "$install_root/bin/"
  chmod +x "$install_root/bin/numi"
fi
echo "numi: installed release v$version ($target), SHA-256 $actual"
echo "$install_root/bin" >> "$GITHUB_PATH"
