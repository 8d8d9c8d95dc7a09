"""Reinforcement-learning adapters (optional extra `rl`: pettingzoo, gymnasium, open-spiel).

- `brass_clients.rl.pettingzoo_env.env(players=2)`: a PettingZoo AEC environment.
- `brass_clients.rl.gym_vector.BrassVectorEnv(num_envs, players)`: gymnasium's vector env.
- `brass_clients.rl.openspiel_game`: registers the OpenSpiel game ``python_brass``.
"""
