#!/usr/bin/env bash
# Installs every Debian package Quire's build, tests and benchmarks need (Debian 12);
# chromium is the browser oracle's reference engine (scripts/browser-oracle.py), and with
# chromium-driver and python3-selenium plays the flipbook (scripts/flipbook-browser-test.py); cjxl/djxl
# (libjxl-tools), avifenc/avifdec (libavif-bin) and cwebp/gif2webp (webp) make and check the
# image-format fixtures (Tests/Fixtures/images/make-images.py); fonts-unifont is the system
# font the fontconfig fallback test finds (Cherokee, Yi: scripts fonts/ does not have).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  pkg-config libxml2-dev zlib1g-dev libfreetype-dev libharfbuzz-dev libunibreak-dev \
  libfribidi-dev libhyphen-dev hyphen-en-us hyphen-de hyphen-fr hyphen-es hyphen-it \
  hyphen-pt-pt hyphen-nl hyphen-ru libpng-dev libturbojpeg0-dev libjpeg62-turbo-dev \
  libdeflate-dev libisal-dev libwebp-dev libuchardet-dev ffmpeg python3-pil chromium chromium-driver python3-selenium \
  libgif-dev libavif-dev libjxl-dev libjxl-tools libavif-bin webp \
  librsvg2-dev libcairo2-dev librsvg2-bin libharfbuzz-bin libicu-dev libfontconfig-dev \
  fonts-unifont \
  >/dev/null

# Ray (PyPI) for the cluster driver (scripts/ray/quire_ray.py) and its test
# (Tests/QuireTests/RayDriverTests.swift, which skips, saying so, when ray cannot be imported).
python3 -m pip install --quiet --disable-pip-version-check "ray==2.60.0" \
  || echo "install-deps: ray could not be installed; the Ray driver test will be skipped" >&2
