#!/usr/bin/env python3
"""Validates deploy/ as far as this machine can (no Docker engine, no cluster):
every Kubernetes manifest parses and has the fields the service relies on, the Dockerfile's build
commands are the Makefile's, the grace period exceeds the shutdown bound, and the systemd unit passes
`systemd-analyze verify` when that tool exists; the image tag is the worker's version; probes have timeouts and a
startup probe; the alert rules pass `promtool check rules` (PROMTOOL) and, like the Grafana dashboard, name only
metrics the worker exports (MetricCatalog.swift is the one list)."""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)


docs = {}
gateway_docs = {}
for name in sorted(os.listdir(os.path.join(root, "deploy/kubernetes"))):
    with open(os.path.join(root, "deploy/kubernetes", name)) as f:
        for doc in yaml.safe_load_all(f):
            check(isinstance(doc, dict) and "kind" in doc and "apiVersion" in doc, f"{name}: a manifest without kind/apiVersion")
            # The worker's manifests by kind; the gateway's (deploy/kubernetes/gateway.yaml) apart.
            if doc.get("metadata", {}).get("name", "").startswith("layout-gateway"):
                gateway_docs[doc["kind"]] = doc
            else:
                docs[doc["kind"]] = doc

dep = docs.get("Deployment", {})
spec = dep.get("spec", {}).get("template", {}).get("spec", {})
container = (spec.get("containers") or [{}])[0]
env = {e["name"]: e.get("value") for e in container.get("env", [])}
check(container.get("livenessProbe", {}).get("httpGet", {}).get("path") == "/healthz", "liveness probe on /healthz")
check(container.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz", "readiness probe on /readyz")
bound_ms = int(env.get("LAYOUT_WORKER_SHUTDOWN_TIMEOUT_MS", "20000"))
check(spec.get("terminationGracePeriodSeconds", 30) * 1000 > bound_ms, "grace period longer than the shutdown bound")
check(spec.get("securityContext", {}).get("runAsNonRoot") is True, "runs as non-root")
check(any(e.get("valueFrom", {}).get("secretKeyRef") for e in container.get("env", [])), "SASL settings come from a Secret")
check(env.get("LAYOUT_WORKER_HTTP", "").startswith("0.0.0.0:"), "probes reach the ops listener (not loopback-only) in the pod")
mounts = {m["name"]: m["mountPath"] for m in container.get("volumeMounts", [])}
volumes = {v["name"]: v for v in spec.get("volumes", [])}
crash_dir = env.get("LAYOUT_WORKER_CRASH_STATE_DIR")
check(crash_dir is not None and any(path == crash_dir and "emptyDir" in volumes.get(name, {}) for name, path in mounts.items()),
      "the crash-loop breaker's state is on an emptyDir (survives container restarts)")
check(container.get("securityContext", {}).get("readOnlyRootFilesystem") is not True or crash_dir in mounts.values(),
      "the crash-state directory is writable under a read-only root filesystem")
check(spec.get("securityContext", {}).get("seccompProfile", {}).get("type") == "RuntimeDefault", "seccomp profile RuntimeDefault")
for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
    check(container.get(probe, {}).get("timeoutSeconds", 0) >= 1, f"{probe} has a timeoutSeconds")
check(container.get("startupProbe", {}).get("httpGet", {}).get("path") == "/healthz", "startup probe on /healthz")
version = re.search(r'current = "([^"]+)"', open(os.path.join(root, "Sources/Ops/WorkerVersion.swift")).read()).group(1)
check(container.get("image", "").endswith(":" + version), f"image tag is the worker's version {version}")
check(env.get("LAYOUT_WORKER_LOG_FORMAT") == "json", "JSON logs in the Deployment")
dockerignore = open(os.path.join(root, ".dockerignore")).read().split()
check(all(d in dockerignore for d in (".build", ".deps", ".git")), ".dockerignore keeps .build, .deps and .git out of the context")
check("PodDisruptionBudget" in docs and "Service" in docs and "ConfigMap" in docs, "PDB, Service and ConfigMap present")
scaled = docs.get("ScaledObject", {}).get("spec", {})
check(scaled.get("maxReplicaCount", 0) >= 1 and scaled.get("triggers", [{}])[0].get("type") == "kafka", "lag autoscaler present")

gw_spec = gateway_docs.get("Deployment", {}).get("spec", {}).get("template", {}).get("spec", {})
gw = (gw_spec.get("containers") or [{}])[0]
gw_env = {e["name"]: e.get("value") for e in gw.get("env", [])}
check(gw.get("command", [])[-1:] == ["gateway"], "the gateway Deployment runs layout-worker gateway")
check(gw.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz"
      and gw.get("livenessProbe", {}).get("httpGet", {}).get("path") == "/healthz", "the gateway's probes")
# The probes and /metrics are on the ops port (--http), which the Service does not expose; the API has no probes.
gw_ports = {p.get("name"): p.get("containerPort") for p in gw.get("ports", [])}
ops_port = (gw_env.get("LAYOUT_WORKER_HTTP") or "").rpartition(":")[2]
check(ops_port.isdigit() and gw_ports.get("ops") == int(ops_port)
      and all(gw.get(probe, {}).get("httpGet", {}).get("port") == "ops"
              for probe in ("startupProbe", "livenessProbe", "readinessProbe"))
      and gw_spec and gateway_docs.get("Deployment", {}).get("spec", {}).get("template", {}).get("metadata", {})
      .get("annotations", {}).get("prometheus.io/port") == ops_port,
      "the gateway's probes and scrape on its ops port")
check(all(p.get("targetPort") != "ops" for p in gateway_docs.get("Service", {}).get("spec", {}).get("ports", [])),
      "the gateway's Service exposes the API only")
check(gw_env.get("LAYOUT_WORKER_HOST") == "0.0.0.0" and gw_env.get("LAYOUT_WORKER_CHANGES_TOPIC"),
      "the gateway listens beyond loopback and names the change-set topic")
check(gw.get("image", "").endswith(":" + version) and gw_spec.get("securityContext", {}).get("runAsNonRoot") is True,
      "the gateway's image tag and non-root user")
check("Service" in gateway_docs, "the gateway's Service")

# The page store: on a writable volume mounted at LAYOUT_WORKER_PAGE_STORE, an emptyDir in the Deployments and a
# volume claim per pod in the StatefulSets of deploy/kubernetes-stateful (the read-only root could not hold it).
def state_dir_mounted(workload, claims):
    pod = workload.get("spec", {}).get("template", {}).get("spec", {})
    c = (pod.get("containers") or [{}])[0]
    state_dir = {e["name"]: e.get("value") for e in c.get("env", [])}.get("LAYOUT_WORKER_PAGE_STORE")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    return state_dir is not None and any(
        m["mountPath"] == state_dir and ("emptyDir" in volumes.get(m["name"], {}) or m["name"] in claims)
        for m in c.get("volumeMounts", []))


check(state_dir_mounted(dep, set()), "the worker Deployment's page store is on an emptyDir at LAYOUT_WORKER_PAGE_STORE")
check(state_dir_mounted(gateway_docs.get("Deployment", {}), set()), "the gateway Deployment's page store is on an emptyDir")
stateful = os.path.join(root, "deploy/kubernetes-stateful")
for name in ("worker.yaml", "gateway.yaml"):
    with open(os.path.join(stateful, name)) as f:
        sets = [d for d in yaml.safe_load_all(f) if d and d.get("kind") == "StatefulSet"]
    check(len(sets) == 1, f"deploy/kubernetes-stateful/{name} holds one StatefulSet")
    for s in sets:
        claims = {t["metadata"]["name"] for t in s["spec"].get("volumeClaimTemplates", [])}
        check(state_dir_mounted(s, claims), f"{name}: the page store is on a volume claim at LAYOUT_WORKER_PAGE_STORE")
        c = s["spec"]["template"]["spec"]["containers"][0]
        check(c.get("image", "").endswith(":" + version), f"{name}: image tag is the worker's version")
        check(c.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/readyz", f"{name}: readiness probe")

makefile = open(os.path.join(root, "Makefile")).read()
dockerfile = open(os.path.join(root, "deploy/Dockerfile")).read()
build_line = re.search(r"swift build -c release (--static-swift-stdlib --product layout-worker)", dockerfile)
check(build_line is not None and "scripts/ensure-librdkafka.sh" in dockerfile, "Dockerfile builds librdkafka and the binary")
check(build_line is not None and build_line.group(1) in makefile, "Dockerfile's swift build flags are the Makefile's (make release)")
check("-Xlinker -rpath -Xlinker /src/.deps/librdkafka/lib" in dockerfile and "LINK_FLAGS := -Xlinker -rpath -Xlinker $(DEPS)/librdkafka/lib" in makefile,
      "Dockerfile links with the Makefile's rpath to the private librdkafka (LINK_FLAGS)")
release_flags = re.search(r"^RELEASE_FLAGS := (.+)$", makefile, re.M)
check(release_flags is not None and release_flags.group(1) in dockerfile,
      "Dockerfile builds with the Makefile's release flags (RELEASE_FLAGS)")
check("USER 10001" in dockerfile, "Dockerfile's runtime user is not root")

unit = os.path.join(root, "deploy/systemd/layout-worker.service")
built = os.path.join(root, ".build/debug/layout-worker")
if shutil.which("systemd-analyze") and os.path.exists(built):
    # Verify a copy whose ExecStart names the binary just built (the real path exists only once installed).
    import tempfile
    tmp = os.path.join(tempfile.mkdtemp(), "layout-worker.service")
    with open(tmp, "w") as f:
        f.write(open(unit).read().replace("/usr/local/bin/layout-worker", built))
    r = subprocess.run(["systemd-analyze", "verify", tmp], capture_output=True, text=True)
    bad = [l for l in r.stderr.splitlines() if "layout-worker.service" in l and "not found" not in l.lower() and "user" not in l.lower()]
    check(not bad, "systemd-analyze verify: " + "; ".join(bad))
else:
    print("deploy check: systemd-analyze not installed; unit file checked for required keys only")
text = open(unit).read()
check("ExecStart=/usr/local/bin/layout-worker serve" in text and "TimeoutStopSec=45" in text, "systemd unit runs serve with a stop timeout")
check("StateDirectory=layout-worker" in text and "LAYOUT_WORKER_CRASH_STATE_DIR=/var/lib/layout-worker" in text,
      "systemd unit keeps the crash-loop breaker's state in its StateDirectory")

check("LAYOUT_WORKER_LOG_FORMAT=json" in text, "systemd unit logs JSON")
if shutil.which("systemd-analyze"):
    r = subprocess.run(["systemd-analyze", "security", "--offline=yes", unit], capture_output=True, text=True)
    level = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", r.stdout)
    check(level is not None and float(level.group(1)) <= 4.0, f"systemd-analyze security rates the unit OK or better: {level.group(0) if level else r.stderr[:200]}")

# The metrics the alert rules and the dashboard name, against the catalog.
catalog_text = open(os.path.join(root, "Sources/Ops/MetricCatalog.swift")).read()
families = dict(re.findall(r'MetricFamily\(\s*"([a-z_]+)",\s*\.(counter|gauge|histogram)', catalog_text))
exported = set()
for name, kind in families.items():
    exported.add(name)
    if kind == "histogram":
        exported.update({name + "_bucket", name + "_sum", name + "_count"})
check(len(families) >= 40, f"MetricCatalog lists the families ({len(families)})")
metric_name = re.compile(r"\b((?:layout_worker|process)_[a-z_]+)\b")
alerts = yaml.safe_load(open(os.path.join(root, "deploy/prometheus/alerts.yaml")))
alert_names = set()
for group in alerts.get("groups", []):
    for rule in group.get("rules", []):
        alert_names.add(rule.get("alert"))
        for name in metric_name.findall(rule.get("expr", "")):
            check(name in exported, f"alert {rule.get('alert')}: {name} is not a metric the worker exports")
for wanted in ("LayoutWorkerLagGrowing", "LayoutWorkerDeadLetterRate", "LayoutWorkerOutputBlocked", "LayoutWorkerProducerReplacements", "LayoutWorkerNotReady"):
    check(wanted in alert_names, f"alert {wanted} present")
promtool = os.environ.get("PROMTOOL") or shutil.which("promtool")
if promtool:
    r = subprocess.run([promtool, "check", "rules", os.path.join(root, "deploy/prometheus/alerts.yaml")], capture_output=True, text=True)
    check(r.returncode == 0, "promtool check rules: " + (r.stdout + r.stderr).strip()[-400:])
else:
    print("deploy check: promtool not found; alert rules checked for metric names only")
dashboard = json.load(open(os.path.join(root, "deploy/grafana/layout-worker.json")))
queries = [t["expr"] for p in dashboard.get("panels", []) for t in p.get("targets", [])]
check(len(queries) >= 10, "the dashboard has its queries")
for q in queries:
    names = metric_name.findall(q)
    check(names, f"dashboard query names no metric: {q}")
    for name in names:
        check(name in exported, f"dashboard: {name} is not a metric the worker exports")

for f in failures:
    print("deploy check failed:", f, file=sys.stderr)
print(f"deploy check: {checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
