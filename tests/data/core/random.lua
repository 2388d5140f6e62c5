-- prints three numbers from math.random
print(math.random(1000), math.random(1000), math.random(1000))
