"""Generated protobuf and gRPC code for brass.v1 (do not edit)."""
