# shellcheck shell=bash
# A MongoDB-wire server: mongo-java-server (de.bwaldvogel) with its H2 MVStore backend, one data
# file under .data/local/mongo. Jars come from Maven Central (deploy/local/mongo/pom.xml) into the
# cache, plus a ten-line main class compiled with javac.
#
# Why not FerretDB v1 (the plan's first choice): measured here, it loses concurrent updates of
# one document (50 concurrent $inc ended at 2 on its SQLite backend, 4 on PostgreSQL) and
# silently ignores `$pull` with a condition. mongo-java-server serialises writes per collection
# (50 of 50), supports `$pull` conditions, unique indexes and aggregation; it has no
# transactions (neither had FerretDB). Its maximum wire version is 8 (MongoDB 4.2), so the
# services use the Node driver 6.x (7.x needs wire 9); driver 6 also speaks to MongoDB 7/8.

MONGO_HOME="$DATA_DIR/mongo"
MONGO_POM="$LOCAL_DIR/mongo/pom.xml"
MONGO_MAIN_SRC="$LOCAL_DIR/mongo/src/WayfarerMongo.java"
MONGO_HEAP_OPTS="${WAYFARER_MONGO_HEAP_OPTS:--Xmx512m -Xms64m}"

# The cache key includes a hash of the pom and the main class, so editing either rebuilds.
mongo_dir() {
  printf '%s/mongo-java-server-%s-%s' "$CACHE_DIR" "$MONGO_JAVA_SERVER_VERSION" \
    "$(cat "$MONGO_POM" "$MONGO_MAIN_SRC" | sha256sum | cut -c1-10)"
}

mongo_addr() { printf '%s:%s' "$HOST" "$MONGO_PORT"; }

mongo_apt_packages() {
  need_cmd javac openjdk-17-jdk-headless
  need_cmd mvn maven
  need_cmd python3 python3   # runs the wire-protocol probe
}

mongo_install() {
  local dir; dir="$(mongo_dir)"
  [[ -f "$dir/.complete" ]] && return 0
  # shellcheck disable=SC2046
  apt_install $(mongo_apt_packages)
  local lf tmp t0; lf="$(logfile mongo-install)"; t0="$(now)"
  log "mongo: resolving mongo-java-server $MONGO_JAVA_SERVER_VERSION from Maven Central into $dir (log: $(rel "$lf"))"
  mkdir -p "$CACHE_DIR" "$LOG_DIR"
  tmp="$(mktemp -d "$CACHE_DIR/.mongo.XXXXXX")"
  chmod 755 "$tmp"
  if ! mvn -B -q -f "$MONGO_POM" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tmp/libs" >>"$lf" 2>&1; then
    rm -rf "$tmp"
    fail "mongo: install (mvn dependency:copy-dependencies)" "$lf" "Maven could not resolve mongo-java-server"
  fi
  if ! javac -cp "$tmp/libs/*" -d "$tmp/classes" "$MONGO_MAIN_SRC" >>"$lf" 2>&1; then
    rm -rf "$tmp"
    fail "mongo: install (javac WayfarerMongo.java)" "$lf" "compiling the server's main class failed"
  fi
  touch "$tmp/.complete"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  log "mongo: mongo-java-server ready in $(($(now) - t0))s"
}

mongo_start() {
  local dir; dir="$(mongo_dir)"
  mkdir -p "$MONGO_HOME"
  # shellcheck disable=SC2086
  spawn mongo java $MONGO_HEAP_OPTS -Djava.awt.headless=true \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$dir/classes:$dir/libs/*" WayfarerMongo "$MONGO_HOME/data.mv" "$HOST" "$MONGO_PORT"
}

# A real `ping` command over the wire protocol (OP_MSG), hand-rolled in lib/probe.py.
mongo_ready() { python3 "$LOCAL_DIR/lib/probe.py" mongo "$HOST" "$MONGO_PORT"; }

mongo_stop() { stop_pid mongo TERM; }

mongo_purge() { rm -rf "$MONGO_HOME"; }
