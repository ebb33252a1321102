"""PersonActors, the DispatcherActor, the agent loop, model backends and personContext refresh."""
