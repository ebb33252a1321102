# The Clara gateway image: the project installed from its own pyproject on a slim Python, run as
# a non-root user. The same image serves both ways it is deployed:
#   docker run ... clara-gateway                  -> `gateway serve` (one node: Ray + Serve inside)
#   KubeRay (deploy/kuberay/rayservice.yaml)      -> the operator runs `ray start` in it, then
#                                                    deploys serveConfigV2 (import gateway.app:build_app)
# Settings come from the environment (GATEWAY_STORE, TWILIO_AUTH_TOKEN, ...; docs/configuration.md).
FROM python:3.11-slim-bookworm AS build

ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY gateway gateway
COPY actors actors
COPY prompts prompts
COPY tools tools
COPY desk desk
COPY spine spine
# A wheel of the project plus wheels of everything it needs, so the runtime stage has no compiler,
# no pip cache and no source tree.
RUN pip wheel --wheel-dir /wheels .

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links /wheels clara-gateway \
    && useradd --create-home --uid 1000 --shell /usr/sbin/nologin clara
USER clara
WORKDIR /home/clara/app
COPY --chown=clara:clara ray_config.yaml ./
RUN mkdir var
# Serve's HTTP port (TLS is terminated in front of it), the metrics export port, Ray's dashboard.
EXPOSE 8000 8080 8265
# Serve binds 127.0.0.1 in ray_config.yaml; in a container, mount a config whose http_options.host
# is 0.0.0.0 (deploy/kuberay does) and keep the port behind the TLS proxy.
CMD ["gateway", "serve"]
