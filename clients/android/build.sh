#!/usr/bin/env bash
# Builds the Android kit's jar and runs its tests, with the JDK and JUnit 4 from Debian (no Gradle or Maven).
#   clients/android/build.sh jar     → build/layoutkit-android.jar (Java 11 bytecode, Main-Class: the apply command,
#                                      Implementation-Version: layout-worker's version) and its POM beside it
#   clients/android/build.sh install [REPO]
#                                    → the jar and POM in a Maven repository's layout (default ~/.m2/repository):
#                                      io.layoutworker:layoutkit-android:VERSION, for Gradle's mavenLocal()
#   clients/android/build.sh test    → the jar, then every JUnit test, then `apply` against layout-worker's, then an
#                                      install into a scratch repository. What it needs, each found in this checkout
#                                      unless set (it says what to run when one is missing):
#     LW_BIN                  layout-worker (.build/debug/layout-worker: `make build`)
#     LW_FIXTURES             records and change sets the binary made (made here by clients/fixtures/generate.py)
#     LW_RANDOM_CHANGE_SETS   the server property test's 10,000 change sets (.run/random-change-sets.ndjson, made
#                             here by the package's test binary, BatchUpdatePropertyTests)
#     LW_TANSU                the Tansu broker, for the feed against a real gateway (`make test-deps`)
#     LW_ROOT                 the repository (samples/, config/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build"
junit=/usr/share/java/junit4.jar
hamcrest=/usr/share/java/hamcrest-core.jar
# The coordinates: the kit is versioned with the worker (`layout-worker --version`, one definition).
group=io.layoutworker
artifact=layoutkit-android
version="$(sed -nE 's/.*static let current = "([^"]+)".*/\1/p' "$root/Sources/Ops/WorkerVersion.swift")"
[ -n "$version" ] || { echo "clients/android: no version in Sources/Ops/WorkerVersion.swift" >&2; exit 1; }
"$root/scripts/ensure-debian-packages.sh" openjdk-17-jdk-headless junit4

jar_() {
  rm -rf "$build/classes" && mkdir -p "$build/classes"
  find "$here/src/main/java" -name '*.java' > "$build/main-sources.txt"
  javac --release 11 -Xlint:all -Werror -encoding UTF-8 -d "$build/classes" @"$build/main-sources.txt"
  printf 'Implementation-Title: %s\nImplementation-Version: %s\nImplementation-Vendor: layout-worker\nAutomatic-Module-Name: io.layoutworker.layoutkit\n' \
    "$artifact" "$version" > "$build/manifest.txt"
  jar --create --file "$build/layoutkit-android.jar" --manifest "$build/manifest.txt" \
    --main-class io.layoutworker.layoutkit.Main -C "$build/classes" .
  pom_ > "$build/$artifact-$version.pom"
  echo "clients/android: $(find "$here/src/main/java" -name '*.java' | wc -l) sources, $(cat $(cat "$build/main-sources.txt") | wc -l) lines -> build/layoutkit-android.jar ($(stat -c %s "$build/layoutkit-android.jar") bytes, $group:$artifact:$version)"
}

pom_() {
  cat <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>$group</groupId>
  <artifactId>$artifact</artifactId>
  <version>$version</version>
  <packaging>jar</packaging>
  <name>$artifact</name>
  <description>Applies layout-worker's change sets to layout records byte for byte, and turns them into RecyclerView updates (plain Java 11, no dependencies).</description>
</project>
POM
}

# The jar and its POM (built by jar_) where a Maven repository keeps them (what `mvn install` writes), with the
# metadata Gradle's mavenLocal() reads.
install_() {
  local repo="${1:-${HOME}/.m2/repository}"
  local dir="$repo/${group//.//}/$artifact"
  mkdir -p "$dir/$version"
  cp "$build/layoutkit-android.jar" "$dir/$version/$artifact-$version.jar"
  cp "$build/$artifact-$version.pom" "$dir/$version/$artifact-$version.pom"
  cat > "$dir/maven-metadata-local.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>$group</groupId>
  <artifactId>$artifact</artifactId>
  <versioning>
    <release>$version</release>
    <versions><version>$version</version></versions>
    <lastUpdated>$(date -u +%Y%m%d%H%M%S)</lastUpdated>
  </versioning>
</metadata>
XML
  echo "clients/android: installed $group:$artifact:$version in $repo (Gradle: repositories { mavenLocal() }, implementation(\"$group:$artifact:$version\"))"
}

# What `test` needs, from this checkout when not set; a missing piece is named with the command that makes it.
inputs_() {
  export LW_ROOT="${LW_ROOT:-$root}"
  export LW_BIN="${LW_BIN:-$root/.build/debug/layout-worker}"
  [ -x "$LW_BIN" ] || { echo "clients/android: the tests need layout-worker at $LW_BIN: run make build (or set LW_BIN)" >&2; exit 2; }
  if [ -z "${LW_FIXTURES:-}" ]; then
    export LW_FIXTURES="$build/fixtures"
    python3 "$root/clients/fixtures/generate.py" "$LW_BIN" "$LW_FIXTURES" >/dev/null
  fi
  if [ -z "${LW_RANDOM_CHANGE_SETS:-}" ]; then
    export LW_RANDOM_CHANGE_SETS="$root/.run/random-change-sets.ndjson"
    if [ ! -s "$LW_RANDOM_CHANGE_SETS" ]; then
      local tests="$root/.build/debug/LayoutWorkerPackageTests.xctest"
      [ -x "$tests" ] || { echo "clients/android: the tests need the server's random change sets: run make build BUILD_TESTS=--build-tests (or set LW_RANDOM_CHANGE_SETS)" >&2; exit 2; }
      mkdir -p "$root/.run"
      "$tests" --testing-library swift-testing --filter BatchUpdatePropertyTests >/dev/null
    fi
  fi
  export LW_TANSU="${LW_TANSU:-$("$root/scripts/tansu-path.sh" || true)}"
  [ -x "$LW_TANSU" ] || { echo "clients/android: the feed test needs the Tansu broker: run make test-deps (or set LW_TANSU)" >&2; exit 2; }
}

test_() {
  inputs_
  jar_
  rm -rf "$build/test-classes" && mkdir -p "$build/test-classes"
  find "$here/src/test/java" -name '*.java' > "$build/test-sources.txt"
  javac --release 11 -Xlint:all,-serial -Werror -encoding UTF-8 -cp "$build/layoutkit-android.jar:$junit" \
    -d "$build/test-classes" @"$build/test-sources.txt"
  classes=$(cd "$build/test-classes" && find . -name '*Test.class' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort)
  java -cp "$build/layoutkit-android.jar:$build/test-classes:$junit:$hamcrest" org.junit.runner.JUnitCore $classes
  cli_
  installed_
}

# Installed into a scratch repository: the jar and POM at the coordinates' path, the POM naming them, the jar
# saying its version (the worker's), and Java code compiled against the installed jar alone.
installed_() {
  local repo="$build/m2" at
  rm -rf "$repo"
  install_ "$repo" >/dev/null
  at="$repo/${group//.//}/$artifact/$version"
  cmp -s "$at/$artifact-$version.jar" "$build/layoutkit-android.jar" || { echo "install: no jar at $at" >&2; exit 1; }
  python3 - "$at/$artifact-$version.pom" "$group" "$artifact" "$version" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
pom = ET.parse(sys.argv[1]).getroot()
got = [pom.findtext(f"m:{k}", namespaces=ns) for k in ("groupId", "artifactId", "version", "packaging")]
if got != sys.argv[2:5] + ["jar"]:
    sys.exit(f"install: the POM says {got}")
PY
  local said worker
  said="$(java -jar "$at/$artifact-$version.jar" --version)"
  worker="$("$LW_BIN" --version)"
  [ "$said" = "$version" ] && [ "$said" = "$worker" ] \
    || { echo "install: the jar says --version $said; the build $version; layout-worker $worker" >&2; exit 1; }
  mkdir -p "$build/consumer"
  cat > "$build/consumer/Consumer.java" <<'JAVA'
import io.layoutworker.layoutkit.feed.HttpUrlConnector;
import io.layoutworker.layoutkit.feed.LayoutFeed;

/** docs/renderers.md's Kotlin lines in Java, against the installed jar. */
public final class Consumer {
    public static void main(String[] args) throws Exception {
        LayoutFeed feed = new LayoutFeed("https://layouts.example.com", "home", new HttpUrlConnector(), step -> {});
        Thread thread = new Thread(feed::run, "layout-feed");
        feed.stop();
        thread.start();
        thread.join();
    }
}
JAVA
  javac --release 11 -Xlint:all -Werror -cp "$at/$artifact-$version.jar" -d "$build/consumer" "$build/consumer/Consumer.java"
  echo "clients/android: installed as $group:$artifact:$version (jar, POM, metadata); --version $said; Java built against it"
}

# `java -jar … apply BASE CHANGE_SET` against `layout-worker apply BASE CHANGE_SET` for every ordered pair of the
# samples' records and each from empty (the fixtures' sample cases): the same bytes, or the check fails.
cli_() {
  local n=0 base changes
  while IFS=$'\t' read -r base changes; do
    java -jar "$build/layoutkit-android.jar" apply "$base" "$changes" > "$build/jar.out"
    "$LW_BIN" apply "$base" "$changes" > "$build/worker.out"
    [ -s "$build/jar.out" ] && cmp -s "$build/jar.out" "$build/worker.out" \
      || { echo "apply $base $changes: the jar and layout-worker differ" >&2; exit 1; }
    n=$((n + 1))
  done < <(python3 - "$LW_FIXTURES" <<'PY'
import json, os, sys
d = sys.argv[1]
for c in json.load(open(os.path.join(d, "manifest.json")))["cases"]:
    if c["name"].startswith("sample-") or c["name"].startswith("from-empty-sample-"):
        print((os.path.join(d, c["base"]) if c["base"] else "-") + "\t" + os.path.join(d, c["changeSet"]))
PY
)
  [ "$n" -gt 0 ] || { echo "no sample cases in $LW_FIXTURES" >&2; exit 1; }
  echo "clients/android: java -jar apply = layout-worker apply on $n sample pairs"
}

case "${1:-test}" in
  jar) jar_ ;;
  install) jar_ && install_ "${2:-}" ;;
  test) test_ ;;
  # How long a change set to the 45 KB sample page takes to apply (needs LW_FIXTURES; run after `test`).
  bench) java -cp "$build/layoutkit-android.jar:$build/test-classes" io.layoutworker.layoutkit.ApplyTiming ;;
  *) echo "usage: $0 jar|install [REPO]|test|bench" >&2; exit 2 ;;
esac
