"""How a game is played: engines (pure Python), agents, simulation and test hands."""
