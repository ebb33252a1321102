"""The PersonActor host: a Ray actor process holding many PersonActors.

PersonHost (host) is the Ray actor; it keeps one PersonActor (person_actor) per active person,
its mailbox, and the ownership lease (ownership) that makes it that person's only owner across
hosts. PersonRuntime (person_runtime) is what the actors share; person_session holds a voice
call's session; conversation_log, handoff, takeover_turns and context_refresh keep the
transcript, pass it between owners, run staff takeovers and refresh personContext.
"""
